import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The boundaries Biome's import rule cannot see: imports written as relative
 * paths, what a module's code says, and how modules depend on each other.
 * Route modules never import another route module; components and lib (which
 * run in the browser too) never import server code; domain code never speaks
 * HTTP; routes reach the database only through domain functions; and no
 * module imports itself back through others.
 */
const APP = import.meta.dirname;
const SERVER = path.join(APP, ".server");

function sourceFiles(folder: string): string[] {
  return fs
    .readdirSync(path.join(APP, folder), { recursive: true })
    .map(String)
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join(APP, folder, file));
}

const relative = (file: string) => path.relative(APP, file);

/** A specifier's module inside app/: the file it names, with the extension the bundler would add. */
function resolveInApp(base: string): string {
  return (
    [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find(
      (candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile(),
    ) ?? base
  );
}

/**
 * Every module specifier a file names: imports and re-exports (`import type`
 * included), and dynamic `import()`. TypeScript's own reader, so that
 * specifiers in comments and strings do not count.
 */
function specifiersOf(file: string): string[] {
  return ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true).importedFiles.map((entry) => entry.fileName);
}

/** Every module a file imports that is one of ours, resolved to its file inside app/. */
function importsOf(file: string): string[] {
  return specifiersOf(file).flatMap((specifier) => {
    if (specifier.startsWith("~/")) return [resolveInApp(path.join(APP, specifier.slice(2)))];
    if (specifier.startsWith(".")) return [resolveInApp(path.resolve(path.dirname(file), specifier))];
    return [];
  });
}

/**
 * app/.server in three layers, one folder each but the domains: `http/` turns
 * requests into domain calls and outcomes into answers (the session,
 * responses, toasts, forms, better-auth's plugins), so it may speak HTTP;
 * `platform/` is what every domain stands on (configuration, errors, the
 * database, mail, files, images, events); every other folder is one domain
 * (accounts, profiles, brands, sso…).
 */
const HTTP_LAYER = path.join(SERVER, "http");
const PLATFORM_LAYER = path.join(SERVER, "platform");

/** The folder of app/.server a file is in: http, platform, or its domain's. */
function layerOf(file: string): string {
  return path.relative(SERVER, file).split(path.sep)[0] ?? "";
}

/** Every file of app/.server that must not speak HTTP: the platform and the domains. */
const domainFiles = () => sourceFiles(".server").filter((file) => !file.startsWith(HTTP_LAYER + path.sep));

/** Packages whose use means speaking HTTP: the router's answers and the Express server's objects. */
const HTTP_PACKAGES = /^(?:react-router|@react-router\/.*|express)$/;

/** The web platform's HTTP types: a domain function takes parsed values, never these. */
const HTTP_GLOBALS = new Set(["Request", "Response", "FormData"]);
/** React Router's answer builders, called under any import name they came by. */
const ANSWER_BUILDERS = new Set(["redirect", "data"]);

/** How a file speaks HTTP, one line per way: what it imports, names and calls. */
function httpSpokenIn(file: string): string[] {
  const found = new Set<string>();
  for (const specifier of specifiersOf(file)) {
    if (HTTP_PACKAGES.test(specifier)) found.add(`imports ${specifier}`);
  }
  for (const target of importsOf(file)) {
    if (target.startsWith(HTTP_LAYER + path.sep)) found.add(`imports ${relative(target)}`);
  }
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node) => {
    // A property of something else (`event.data`, `ctx.redirect`) is that object's own.
    const isMemberName =
      (ts.isPropertyAccessExpression(node.parent) && node.parent.name === node) ||
      (ts.isPropertyAssignment(node.parent) && node.parent.name === node) ||
      (ts.isPropertySignature(node.parent) && node.parent.name === node);
    if (ts.isIdentifier(node) && !isMemberName && HTTP_GLOBALS.has(node.text)) found.add(`names ${node.text}`);
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && ANSWER_BUILDERS.has(node.expression.text)) {
      found.add(`calls ${node.expression.text}()`);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return [...found];
}

/**
 * The import cycles among the modules, each as `a → b → … → a`: one for every
 * import that leads back into the chain being followed, so every group of
 * modules that import each other shows, with the imports that close it.
 * Type-only imports count: they make no cycle at run time, but a type's home
 * decides what its readers depend on, and a circle through a type (as `Actor`
 * once made through the session module) turns into a run-time one with the
 * first value imported alongside it.
 */
function importCycles(files: string[]): string[] {
  const ours = new Set(files);
  const graph = new Map(
    files.map((file) => [file, [...new Set(importsOf(file))].filter((target) => ours.has(target)).sort()]),
  );
  const done = new Set<string>();
  const chain: string[] = [];
  const cycles: string[] = [];
  const follow = (file: string) => {
    chain.push(file);
    for (const target of graph.get(file) ?? []) {
      const back = chain.indexOf(target);
      if (back >= 0) cycles.push([...chain.slice(back), target].map(relative).join(" → "));
      else if (!done.has(target)) follow(target);
    }
    chain.pop();
    done.add(file);
  };
  for (const file of [...files].sort()) if (!done.has(file)) follow(file);
  return cycles;
}

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

  it("domain and platform code never speaks HTTP: no React Router, Express, Request, Response, FormData or answers, outside app/.server/http", () => {
    const offenders = domainFiles().flatMap((file) => httpSpokenIn(file).map((how) => `${relative(file)} ${how}`));
    expect(offenders).toEqual([]);
  });

  it("keeps app/.server in its layers: no loose file, the platform imports no domain, and no domain imports http", () => {
    const files = sourceFiles(".server");
    const loose = files.filter((file) => path.dirname(file) === SERVER).map(relative);
    const upward = files.flatMap((file) => {
      const from = layerOf(file);
      return importsOf(file)
        .filter((target) => target.startsWith(SERVER + path.sep))
        .filter((target) => {
          const to = layerOf(target);
          if (from === to || from === "http") return false;
          // The platform stands on nothing of the domains; a domain reaches the http layer never.
          return from === "platform" ? to !== "platform" : to === "http";
        })
        .map((target) => `${relative(file)} → ${relative(target)}`);
    });
    expect({ loose, upward }).toEqual({ loose: [], upward: [] });
  });

  it("no domain folder imports itself back through others: the folders of app/.server form no circle", () => {
    const edges = new Map<string, Set<string>>();
    for (const file of sourceFiles(".server")) {
      const from = layerOf(file);
      for (const target of importsOf(file)) {
        const to = layerOf(target);
        if (!target.startsWith(SERVER + path.sep) || to === from) continue;
        edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    const circles: string[] = [];
    const walk = (folder: string, chain: string[]) => {
      for (const next of edges.get(folder) ?? []) {
        const back = chain.indexOf(next);
        if (back >= 0) circles.push([...chain.slice(back), next].join(" → "));
        else walk(next, [...chain, next]);
      }
    };
    for (const folder of edges.keys()) walk(folder, [folder]);
    expect(circles).toEqual([]);
  });

  it("route modules reach the database only through domain functions: nothing of app/.server/platform/db", () => {
    const database = path.join(PLATFORM_LAYER, "db");
    const crossings = [...sourceFiles("routes"), path.join(APP, "root.tsx")].flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(database + path.sep))
        .map((target) => `${relative(file)} → ${relative(target)}`),
    );
    expect(crossings).toEqual([]);
  });

  it("route modules read request bodies only through app/.server/http/form-data.ts, which answers a broken body with a 4xx", () => {
    const readers = sourceFiles("routes")
      .filter((file) => /\brequest\.(formData|json|text|arrayBuffer|blob)\(/.test(fs.readFileSync(file, "utf8")))
      .map(relative);
    expect(readers).toEqual([]);
  });

  it("no module imports itself back through others", () => {
    expect(importCycles(sourceFiles("."))).toEqual([]);
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
    expect(readers).toEqual([".server/platform/env.ts"]);
  });

  it("only the card writer makes, changes or claims a card: no other module writes the profiles table", () => {
    // Writes that are not a change of a card's content, each with its reason.
    const byDesign = new Map([
      // Deleting a card removes it and its history together; there is nothing left to announce a change of.
      [".server/profiles/delete-profile.ts", "delete"],
      // A change of the company's field policies rewrites every card's visibility in one statement.
      [".server/profiles/visibility.ts", "update"],
      // View counts are the analytics' own column, written in batches by the view journal.
      [".server/analytics/views.ts", "update"],
    ]);
    const writes = /\.(insert|update|delete)\(profiles\)|\b(insert into|update|delete from) \$\{profiles\}/g;
    const writers = sourceFiles(".server").flatMap((file) =>
      [...fs.readFileSync(file, "utf8").matchAll(writes)]
        .map((match) => (match[1] ?? match[2] ?? "").replace(/ .*/, ""))
        .filter((kind) => byDesign.get(relative(file)) !== kind)
        .map((kind) => `${relative(file)} ${kind}s profiles`),
    );
    expect(writers.filter((line) => !line.startsWith(".server/profiles/card-writer.ts"))).toEqual([]);
  });
});
