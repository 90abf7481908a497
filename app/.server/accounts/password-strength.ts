import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/**
 * Refuses passwords that are common or easy to guess, with zxcvbn's estimator
 * and its common-password and word lists, which ship inside the npm packages
 * (nothing is fetched at run time). Loaded on first use: the lists are large.
 */
let estimator: Promise<ZxcvbnFactory> | undefined;

function load() {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
    ]);
    return new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
  })();
  return estimator;
}

/** Fewer estimated guesses than this (zxcvbn's score below 2) is too easy to guess. */
const MIN_GUESSES_LOG10 = 6;

export const WEAK_PASSWORD =
  "This password is too common or too easy to guess. Try a longer one, such as a few unrelated words.";

/** A message when `password` is too weak, else null. `related` are the person's own details (name, email). */
export async function weakPasswordMessage(password: string, related: string[] = []): Promise<string | null> {
  const zxcvbn = await load();
  const result = await zxcvbn.check(password, related.filter(Boolean));
  return result.guessesLog10 < MIN_GUESSES_LOG10 ? WEAK_PASSWORD : null;
}
