import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { samlMetadata } from "~/.server/sso/saml";
import { makeKeyPair } from "./saml-idp";
import { freePort } from "./server-process";

/**
 * SimpleSAMLphp (Debian's simplesamlphp, 1.19) as a SAML identity provider on
 * 127.0.0.1, served by PHP's own web server from the package's files, with a
 * configuration made from the package's own: what docs/admin/providers/simplesamlphp.md
 * tells an administrator to change, and nothing else. People sign in on its
 * own password page (its `exampleauth:UserPass` source).
 */
const WWW = "/usr/share/simplesamlphp/www";
const CONFIG = "/etc/simplesamlphp";
const AUTOLOAD = "/usr/share/simplesamlphp/vendor/autoload.php";
const PHP = "/usr/bin/php";

/** Whether SimpleSAMLphp and PHP's XML support are installed (`.ci/run` installs them). */
export function simpleSamlPhpInstalled(): boolean {
  return (
    [WWW, path.join(CONFIG, "config.php"), AUTOLOAD, PHP].every((file) => fs.existsSync(file)) &&
    spawnSync(PHP, ["-r", "exit(class_exists('DOMDocument') ? 0 : 1);"]).status === 0
  );
}

/**
 * What SimpleSAMLphp's "XML to SimpleSAMLphp metadata converter" admin page makes of
 * Namecard's metadata: the entry an administrator pastes into saml20-sp-remote.php.
 */
function convertedSpMetadata(xml: string, configDir: string): string {
  const script = `
require ${JSON.stringify(AUTOLOAD)};
$out = "<?php\\n";
foreach (\\SimpleSAML\\Metadata\\SAMLParser::parseDescriptorsString(stream_get_contents(STDIN)) as $entity) {
  $sp = $entity->getMetadata20SP();
  if ($sp === null) continue;
  unset($sp['entityDescriptor'], $sp['expire']);
  $out .= '$metadata[' . var_export($sp['entityid'], true) . '] = ' . var_export($sp, true) . ";\\n";
}
echo $out;`;
  const converted = spawnSync(PHP, ["-r", script], {
    input: xml,
    env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: configDir },
  });
  if (converted.status !== 0) throw new Error(`the metadata could not be converted: ${converted.stderr}`);
  return converted.stdout.toString();
}

/** One setting of config.php, changed as the guide says; a setting missing from the package's file stops the test. */
function set(config: string, from: string, to: string): string {
  if (!config.includes(from)) throw new Error(`SimpleSAMLphp's config.php has no ${from}`);
  return config.replace(from, to);
}

type Person = { username: string; password: string; attributes: Record<string, string[]> };

function phpString(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

export type SimpleSamlPhp = Awaited<ReturnType<typeof startSimpleSamlPhp>>;

export async function startSimpleSamlPhp(people: Person[], options: { persistentNameId?: boolean } = {}) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-simplesamlphp-"));
  const configDir = path.join(folder, "config");
  const metadataDir = path.join(folder, "metadata");
  const certDir = path.join(folder, "cert");
  for (const dir of [configDir, metadataDir, certDir, path.join(folder, "log"), path.join(folder, "tmp")]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  fs.cpSync(path.join(CONFIG, "attributemap"), path.join(configDir, "attributemap"), { recursive: true });
  const keys = makeKeyPair("SimpleSAMLphp IdP");
  fs.writeFileSync(path.join(certDir, "idp.key"), keys.privateKey);
  fs.writeFileSync(path.join(certDir, "idp.crt"), keys.certificate);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let config = fs.readFileSync(path.join(CONFIG, "config.php"), "utf8");
  config = set(config, "'baseurlpath' => 'simplesamlphp/'", `'baseurlpath' => '${base}/'`);
  config = set(config, "'certdir' => '/etc/ssl/certs/'", `'certdir' => '${certDir}/'`);
  config = set(config, "'loggingdir' => '/var/log/simplesamlphp/'", `'loggingdir' => '${folder}/log/'`);
  config = set(config, "'tempdir' => '/tmp/simplesaml'", `'tempdir' => '${folder}/tmp'`);
  config = set(config, "'metadatadir' => '/etc/simplesamlphp/metadata/'", `'metadatadir' => '${metadataDir}/'`);
  config = set(config, "//'secretsalt' => 'defaultsecretsalt'", "'secretsalt' => 'a salt of this test alone'");
  config = set(config, "'enable.saml20-idp' => false", "'enable.saml20-idp' => true");
  config = set(config, "'exampleauth' => false,", "'exampleauth' => true,");
  // Plain http on this machine: its session cookie must not ask for https.
  config = set(config, "'session.cookie.secure' => true", "'session.cookie.secure' => false");
  config = set(config, "'logging.handler' => 'syslog'", "'logging.handler' => 'file'");
  fs.writeFileSync(path.join(configDir, "config.php"), config);
  const accounts = people
    .map(
      (person) =>
        `    ${phpString(`${person.username}:${person.password}`)} => [${Object.entries(person.attributes)
          .map(([name, values]) => `${phpString(name)} => [${values.map(phpString).join(", ")}]`)
          .join(", ")}],`,
    )
    .join("\n");
  fs.writeFileSync(
    path.join(configDir, "authsources.php"),
    `<?php\n$config = [\n  'admin' => ['core:AdminPassword'],\n  'example-userpass' => [\n    'exampleauth:UserPass',\n${accounts}\n  ],\n];\n`,
  );
  // The hosted identity provider as its template has it, with the key and the people's source.
  fs.writeFileSync(
    path.join(metadataDir, "saml20-idp-hosted.php"),
    `<?php\n$metadata['__DYNAMIC:1__'] = [\n  'host' => '__DEFAULT__',\n  'privatekey' => 'idp.key',\n  'certificate' => 'idp.crt',\n  'auth' => 'example-userpass',\n];\n`,
  );
  // The converted entry, and the guide's one addition to it: a persistent NameID made from `uid`
  // (SimpleSAMLphp sends a transient one otherwise, whatever the metadata asks for).
  const entityId = /entityID="([^"]+)"/.exec(samlMetadata())?.[1] ?? "";
  const persistent = `$metadata[${phpString(entityId)}]['authproc'] = [\n  10 => ['class' => 'saml:PersistentNameID', 'attribute' => 'uid'],\n];\n`;
  fs.writeFileSync(
    path.join(metadataDir, "saml20-sp-remote.php"),
    convertedSpMetadata(samlMetadata(), configDir) + (options.persistentNameId === false ? "" : persistent),
  );

  const child: ChildProcess = spawn(PHP, ["-S", `127.0.0.1:${port}`, "-t", WWW], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: configDir },
  });
  let output = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const ended = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`PHP's server ended (${code}): ${output}`))),
  );
  ended.catch(() => {});
  for (;;) {
    const answered = await Promise.race([
      fetch(`${base}/saml2/idp/metadata.php`).then(
        (response) => response.ok,
        () => false,
      ),
      ended,
    ]);
    if (answered) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    metadataUrl: `${base}/saml2/idp/metadata.php`,
    metadata: async () => (await fetch(`${base}/saml2/idp/metadata.php`)).text(),
    /**
     * A person at the provider's sign-in page: the request is followed to its password
     * form, the person signs in, and the SAMLResponse of the page it answers with (the one
     * its script posts to Namecard) is returned.
     */
    async responseTo(url: string, person: { username: string; password: string }): Promise<string> {
      const jar = new Map<string, string>();
      const keep = (headers: Headers) => {
        for (const cookie of headers.getSetCookie()) {
          const [pair = ""] = cookie.split(";");
          const at = pair.indexOf("=");
          jar.set(pair.slice(0, at), pair.slice(at + 1));
        }
      };
      const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
      let current = url;
      let page: Response | undefined;
      for (let hop = 0; hop < 5; hop++) {
        page = await fetch(current, { redirect: "manual", headers: { cookie: cookie() } });
        keep(page.headers);
        const location = page.headers.get("location");
        if (!location) break;
        current = new URL(location, current).href;
      }
      const form = await (page as Response).text();
      const state = /name="AuthState" value="([^"]+)"/.exec(form)?.[1];
      if (!state) throw new Error(`SimpleSAMLphp showed no password form (${page?.status}): ${form.slice(0, 2000)}`);
      const answered = await fetch(current, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          username: person.username,
          password: person.password,
          AuthState: state.replace(/&amp;/g, "&"),
        }),
      });
      keep(answered.headers);
      let html = await answered.text();
      let next = answered.headers.get("location");
      for (let hop = 0; next && hop < 5; hop++) {
        const followed = await fetch(new URL(next, current), { redirect: "manual", headers: { cookie: cookie() } });
        keep(followed.headers);
        html = await followed.text();
        next = followed.headers.get("location");
      }
      const encoded = /name="SAMLResponse" value="([^"]+)"/.exec(html)?.[1];
      if (!encoded) throw new Error(`SimpleSAMLphp sent no SAMLResponse: ${html.slice(0, 2000)}`);
      return encoded;
    },
    /** What SimpleSAMLphp wrote to its log, for a failure's message. */
    log: () => {
      const file = path.join(folder, "log", "simplesamlphp.log");
      return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    },
    async close() {
      child.kill("SIGTERM");
      await ended.catch(() => {});
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
