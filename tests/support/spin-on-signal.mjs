// Preloaded into a server under test (`node --import`): SIGUSR2 leaves its
// main thread spinning for good, as the embedded database did after a fault.
process.on("SIGUSR2", () => {
  for (;;) {
    // Spins: nothing else on this thread runs again.
  }
});
