import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The boundaries Biome's import rule cannot see: imports written as relative
 * paths. Route modules never import another route module, and components and
 * lib (which run in the browser too) never import server code.
 */
const APP = import.meta.dirname;

function sourceFiles(folder: string): string[] {
  return fs
    .readdirSync(path.join(APP, folder), { recursive: true })
    .map(String)
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".test.ts"))
    .map((file) => path.join(APP, folder, file));
}

/** Every module a file imports, resolved to a path inside app/ where it is one of ours. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(/(?:import|export)\s[^"']*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g),
  ].map((match) => match[1] ?? match[2] ?? "");
  return specifiers.flatMap((specifier) => {
    if (specifier.startsWith("~/")) return [path.join(APP, specifier.slice(2))];
    if (specifier.startsWith(".")) return [path.resolve(path.dirname(file), specifier)];
    return [];
  });
}

const relative = (file: string) => path.relative(APP, file);

describe("module boundaries", () => {
  it("no route module imports another route module", () => {
    const routes = path.join(APP, "routes");
    const crossings = sourceFiles("routes").flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(routes + path.sep) && !target.includes(`${path.sep}+types${path.sep}`))
        .map((target) => `${relative(file)} → ${relative(target)}`),
    );
    expect(crossings).toEqual([]);
  });

  it("components and lib import nothing from the server code", () => {
    const crossings = [...sourceFiles("components"), ...sourceFiles("lib")].flatMap((file) =>
      importsOf(file)
        .filter(
          (target) =>
            /(^|\/)\.server(\/|$)|\.server(\.tsx?)?$/.test(relative(target)) ||
            relative(target).startsWith("middleware"),
        )
        .map((target) => `${relative(file)} → ${relative(target)}`),
    );
    expect(crossings).toEqual([]);
  });

  it("domain code never speaks HTTP: no React Router, no Request or FormData in the entity folders", () => {
    const domains = ["profiles", "brands", "settings", "analytics", "accounts"];
    const offenders = domains
      .flatMap((domain) => sourceFiles(path.join(".server", domain)))
      .filter((file) => /from\s+["']react-router["']|\bRequest\b|\bFormData\b/.test(fs.readFileSync(file, "utf8")))
      .map(relative);
    expect(offenders).toEqual([]);
  });

  it("only the env module reads process.env in the application", () => {
    const readers = [
      ...sourceFiles("routes"),
      ...sourceFiles("components"),
      ...sourceFiles("lib"),
      ...sourceFiles(".server"),
    ]
      .filter((file) => fs.readFileSync(file, "utf8").includes("process.env"))
      .map(relative);
    expect(readers).toEqual([".server/env.ts"]);
  });
});
