import type { KnipConfig } from "knip";

/** Unused files, exports and dependencies; `npm run knip`, and a step of `npm test`. */
const config: KnipConfig = {
  entry: [
    "server/app.ts",
    "app/.server/platform/db/database-thread.worker.ts",
    "scripts/*.{js,ts}",
    "bench/*.ts",
    "tests/setup/*.ts",
  ],
  project: ["**/*.{js,ts,tsx,css}"],
  // Debian tools the tests run: the QR decoder (an independent checker), chattr (an upload
  // folder even root cannot write to), mount/umount (a small disk to fill); apt-get installs
  // nginx for the load benchmark; caddy and systemd-analyze check the recipes of deploy/.
  ignoreBinaries: ["zbarimg", "chattr", "mount", "umount", "apt-get", "openssl", "runuser", "caddy", "systemd-analyze"],
  compilers: {
    // Stylesheets import packages too (Tailwind, the self-hosted fonts).
    css: (text: string) =>
      [...text.matchAll(/@import\s+["']([^"']+)["']/g)].map((match) => `import "${match[1]}";`).join("\n"),
  },
};

export default config;
