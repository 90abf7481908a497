import type { NextFunction, Request, Response } from "express";
import { matchRoutes, type ServerBuild } from "react-router";
import {
  type BodyHandle,
  type BodyLimit,
  FORM_TYPES,
  MAX_FORM_BYTES,
  MAX_SAML_FORM_BYTES,
  MAX_SETTINGS_FORM_BYTES,
  MAX_UPLOAD_FORM_BYTES,
} from "~/.server/http/form-data";
import { MAX_IMPORT_FORM_BYTES } from "~/.server/imports/imports";

/**
 * What the server needs to know about a route before React Router runs it,
 * read from what the route module declares in its `handle` export next to its
 * loader and action, never from a list of addresses kept here
 * (docs/decisions/023-route-declared-limits.md):
 *
 * - `bodyLimit` and `bodyTypes` (`BodyHandle`): how large a body its action
 *   takes and in which media types;
 * - `cachedPage`: that its anonymous response is cached for reuse, and as what
 *   (server/page-cache.ts).
 *
 * A request's path is matched against the server build's routes as React
 * Router matches it, once per path (cached in a bounded map: the anonymous card
 * is the busiest address).
 */

/** The responses server/page-cache.ts caches: a card page, a QR page, a contact file, an image. */
const CACHED_PAGES = ["card", "qr", "vcard", "image"] as const;
export type CachedPage = (typeof CACHED_PAGES)[number];

const BODY_LIMITS = {
  form: MAX_FORM_BYTES,
  upload: MAX_UPLOAD_FORM_BYTES,
  settings: MAX_SETTINGS_FORM_BYTES,
  import: MAX_IMPORT_FORM_BYTES,
  saml: MAX_SAML_FORM_BYTES,
} satisfies Record<BodyLimit, number>;

/** What a POST reaches: an action, with the most its body may hold and the media types it reads. */
export type ActionFacts = { limit: number; types: readonly string[]; crossSite: boolean };

export type RouteFacts = {
  /** The action a POST to this address runs, or null when none does (405). */
  action: ActionFacts | null;
  /** What the response to an anonymous GET is cached as, or null when it is not cached. */
  cachedPage: CachedPage | null;
};

type RouteModule = NonNullable<ServerBuild["routes"][string]>["module"];

type Declared = { cachedPage: CachedPage | null; action: ActionFacts | null };

type RouteNode = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children: RouteNode[] };

type PathFacts = {
  cachedPage: CachedPage | null;
  /** The action a POST reaches: the deepest route with a path of its own. */
  action: ActionFacts | null;
  /** For an index route, the action a POST with a bare `?index` reaches instead (as React Router decides). */
  indexAction?: ActionFacts | null;
};

/** Paths remembered at most: the map is emptied when full, so unknown addresses cannot make it grow. */
const MAX_PATHS = 5_000;

type RouteTable = {
  /** The facts of the route that responds to `pathname` (a `.data` request's as its page's); `search` decides `?index`. */
  factsOf(pathname: string, search?: string): RouteFacts;
};

const tables = new WeakMap<ServerBuild, RouteTable>();

/** The route table of a build, made once per build (a development server makes a new build on every change). */
export function routeTable(build: ServerBuild): RouteTable {
  let table = tables.get(build);
  if (!table) {
    table = makeTable(build);
    tables.set(build, table);
  }
  return table;
}

function makeTable(build: ServerBuild): RouteTable {
  const declared = new Map<string, Declared>();
  for (const route of Object.values(build.routes)) {
    if (route) declared.set(route.id, declarationsOf(route.id, route.module));
  }
  const tree = treeOf(build.routes);
  const byPath = new Map<string, PathFacts>();
  return {
    factsOf(pathname, search = "") {
      const path = pagePathOf(pathname);
      let facts = byPath.get(path);
      if (!facts) {
        facts = matchPath(tree, declared, path);
        if (byPath.size >= MAX_PATHS) byPath.clear();
        byPath.set(path, facts);
      }
      const action = facts.indexAction !== undefined && hasBareIndex(search) ? facts.indexAction : facts.action;
      return { action, cachedPage: facts.cachedPage };
    },
  };
}

/** A route module's declarations, checked: a mistyped one stops the server at its start, not a request later. */
function declarationsOf(id: string, module: RouteModule): Declared {
  // Read as unknown values: a route module's `handle` is not checked against these types by anything else.
  const handle = (module.handle ?? {}) as { [Key in keyof BodyHandle | "cachedPage"]?: unknown };
  const { bodyLimit = "form", bodyTypes = FORM_TYPES, cachedPage = null, crossSite = false } = handle;
  if (typeof crossSite !== "boolean") throw new Error(`route ${id}: handle.crossSite must be true or false`);
  if (typeof bodyLimit !== "string" || !(bodyLimit in BODY_LIMITS)) {
    throw new Error(`route ${id}: handle.bodyLimit must be one of ${Object.keys(BODY_LIMITS).join(", ")}`);
  }
  if (
    !Array.isArray(bodyTypes) ||
    !bodyTypes.every((type) => typeof type === "string" && type === type.toLowerCase())
  ) {
    throw new Error(`route ${id}: handle.bodyTypes must be a list of lowercase media types`);
  }
  if (cachedPage !== null && !CACHED_PAGES.includes(cachedPage as CachedPage)) {
    throw new Error(`route ${id}: handle.cachedPage must be one of ${CACHED_PAGES.join(", ")}`);
  }
  return {
    cachedPage: cachedPage as CachedPage | null,
    action: module.action
      ? { limit: BODY_LIMITS[bodyLimit as BodyLimit], types: bodyTypes as string[], crossSite }
      : null,
  };
}

/** The build's flat route manifest as the nested routes `matchRoutes` takes. */
function treeOf(manifest: ServerBuild["routes"]): RouteNode[] {
  const byParent = new Map<string, RouteNode[]>();
  for (const route of Object.values(manifest)) {
    if (!route) continue;
    const siblings = byParent.get(route.parentId ?? "") ?? [];
    siblings.push({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      children: [],
    });
    byParent.set(route.parentId ?? "", siblings);
  }
  for (const nodes of byParent.values()) {
    for (const node of nodes) node.children = byParent.get(node.id) ?? [];
  }
  return byParent.get("") ?? [];
}

function matchPath(tree: RouteNode[], declared: Map<string, Declared>, path: string): PathFacts {
  // Index routes have no children, which the nested type above cannot say.
  const matches = matchRoutes(tree as Parameters<typeof matchRoutes>[0], path) ?? [];
  const leaf = matches.at(-1)?.route as RouteNode | undefined;
  // As React Router picks the action: the deepest match that adds to the path.
  const target = matches.filter((match, index) => index === 0 || match.route.path).at(-1)?.route as
    | RouteNode
    | undefined;
  const facts: PathFacts = {
    cachedPage: leaf ? (declared.get(leaf.id)?.cachedPage ?? null) : null,
    action: target ? (declared.get(target.id)?.action ?? null) : null,
  };
  if (leaf?.index) facts.indexAction = declared.get(leaf.id)?.action ?? null;
  return facts;
}

/** The page a path names: a data request (`/x.data`, `/_root.data`) names its page's path. */
function pagePathOf(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  const path = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/** React Router sends a POST to an index route only when the query has a bare `index`. */
function hasBareIndex(search: string): boolean {
  return search !== "" && new URLSearchParams(search).getAll("index").includes("");
}

/**
 * Finds each request's route facts (`res.locals.route`) for the steps that
 * need them before React Router: the page cache and the request handler.
 */
export function findRoutes(build: ServerBuild | (() => Promise<ServerBuild>)) {
  return (req: Request, res: Response, next: NextFunction) => {
    const find = (loaded: ServerBuild) => {
      const query = req.originalUrl.indexOf("?");
      res.locals.route = routeTable(loaded).factsOf(req.path, query < 0 ? "" : req.originalUrl.slice(query));
      next();
    };
    if (typeof build === "function") build().then(find, next);
    else find(build);
  };
}

/** The route facts `findRoutes` found for this request. */
export function routeOf(res: Response): RouteFacts {
  return res.locals.route as RouteFacts;
}
