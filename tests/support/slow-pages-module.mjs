// Preloaded into a server under test (`node --import`): loading the pages' module
// holds the main thread for 3 s, as compiling it does on a busy machine.
import { register } from "node:module";

const HOOKS = `
export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!/\\/server-build-[^/]*\\.js$/.test(url)) return loaded;
  const hold =
    "process.stderr.write('[test] loading the pages holds the thread for 3 s' + String.fromCharCode(10));" +
    "{ const until = Date.now() + 3000; while (Date.now() < until) {} }\\n";
  return { ...loaded, source: hold + String(loaded.source) };
}
`;
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`);
