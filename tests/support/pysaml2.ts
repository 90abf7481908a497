import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { samlMetadata } from "~/.server/sso/saml";
import { makeKeyPair } from "./saml-idp";
import { freePort } from "./server-process";

const SCRIPT = path.join(import.meta.dirname, "pysaml2-idp.py");
/** Debian's Python, which sees Debian's python3-pysaml2. */
const PYTHON = "/usr/bin/python3";

/** Whether pysaml2 and xmlsec1 are installed (`.ci/run` installs them). */
export function pysaml2Installed(): boolean {
  return fs.existsSync("/usr/bin/xmlsec1") && spawnSync(PYTHON, ["-c", "import saml2.server"]).status === 0;
}

export type Pysaml2Idp = Awaited<ReturnType<typeof startPysaml2Idp>>;

/**
 * pysaml2's identity provider with its default settings (tests/support/pysaml2-idp.py),
 * on 127.0.0.1, knowing Namecard's metadata as an administrator would give it.
 */
export async function startPysaml2Idp(options: { defaultAlgorithms?: boolean } = {}) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-pysaml2-"));
  const keys = makeKeyPair("pysaml2 IdP");
  fs.writeFileSync(path.join(folder, "key.pem"), keys.privateKey);
  fs.writeFileSync(path.join(folder, "cert.pem"), keys.certificate);
  fs.writeFileSync(path.join(folder, "sp.xml"), samlMetadata());
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(PYTHON, [SCRIPT, folder, String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PYSAML2_DEFAULT_ALGORITHMS: options.defaultAlgorithms ? "1" : "" },
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("listening")) resolve();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`pysaml2's provider ended (${code}): ${output}`)));
  });
  return {
    entityId: `${base}/metadata`,
    metadata: async () => (await fetch(`${base}/metadata`)).text(),
    /** Who signs in next, with the attributes the provider releases (by pysaml2's own names). */
    signInAs: async (userid: string, identity: Record<string, string[]>) => {
      const answer = await fetch(`${base}/person`, { method: "POST", body: JSON.stringify({ userid, identity }) });
      if (answer.status !== 204) throw new Error(`the provider did not take the person: ${answer.status}`);
    },
    /** The provider's sign-in page for a request: the SAMLResponse its form posts back. */
    responseTo: async (url: string): Promise<string> => {
      const page = await fetch(url);
      const html = await page.text();
      if (!page.ok) throw new Error(`pysaml2's provider answered ${page.status}: ${html}`);
      const encoded = /name="SAMLResponse" value="([^"]+)"/.exec(html)?.[1];
      if (!encoded) throw new Error(`no SAMLResponse in the provider's page: ${html.slice(0, 500)}`);
      return encoded;
    },
    close: async () => {
      child.kill("SIGTERM");
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
