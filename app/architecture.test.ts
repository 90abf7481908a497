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
 * The domain layer: every file in a folder under app/.server/, a folder added
 * later included. The files directly in app/.server/ are the platform that
 * turns requests into domain calls and outcomes into answers (the session,
 * responses, toasts, forms), so they may speak HTTP.
 */
const domainFiles = () => sourceFiles(".server").filter((file) => path.dirname(file) !== SERVER);

/**
 * Domain files that must speak HTTP, each with the reason. Kept to files,
 * never folders, and each must still need its place here (a test below).
 */
const SPEAKS_HTTP_BY_DESIGN = new Map([
  [
    ".server/accounts/auth-plugin.ts",
    // better-auth runs this plugin inside its own request handling: its hooks
    // answer with Responses (404 for a closed endpoint, 302 for an old link)
    // and its endpoints redirect through better-auth's context.
    "better-auth's plugin: its hooks and endpoints answer HTTP by better-auth's contract",
  ],
]);

/** Packages whose use means speaking HTTP: the router's answers and the Express server's objects. */
const HTTP_PACKAGES = /^(?:react-router|@react-router\/.*|express)$/;

/**
 * The platform modules that read requests or build answers. Domain code throws
 * the typed errors of errors.ts instead, and takes the session's actor as a
 * value, so it reaches none of these.
 */
const HTTP_PLATFORM = new Set(
  ["authz", "responses", "toast", "form-data", "http", "card-gone", "cached-render", "outage"].map((name) =>
    path.join(SERVER, `${name}.ts`),
  ),
);

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
    if (HTTP_PLATFORM.has(target)) found.add(`imports ${relative(target)}`);
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

  it("domain code never speaks HTTP: no React Router, Express, Request, Response, FormData or answers, in any folder of app/.server", () => {
    const offenders = domainFiles()
      .filter((file) => !SPEAKS_HTTP_BY_DESIGN.has(relative(file)))
      .flatMap((file) => httpSpokenIn(file).map((how) => `${relative(file)} ${how}`));
    expect(offenders).toEqual([]);
  });

  it("the guard's lists name files that exist, and each domain file allowed to speak HTTP still needs to", () => {
    const stale = [
      ...[...SPEAKS_HTTP_BY_DESIGN.keys()].filter((file) => {
        const absolute = path.join(APP, file);
        return !fs.existsSync(absolute) || httpSpokenIn(absolute).length === 0;
      }),
      ...[...HTTP_PLATFORM].filter((file) => !fs.existsSync(file)).map(relative),
    ];
    expect(stale).toEqual([]);
  });

  it("route modules reach the database only through domain functions: nothing of app/.server/db", () => {
    const database = path.join(SERVER, "db");
    const crossings = [...sourceFiles("routes"), path.join(APP, "root.tsx")].flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(database + path.sep))
        .map((target) => `${relative(file)} → ${relative(target)}`),
    );
    expect(crossings).toEqual([]);
  });

  it("route modules read request bodies only through app/.server/form-data.ts, which answers a broken body with a 4xx", () => {
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
    expect(readers).toEqual([".server/env.ts"]);
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
