// Fills a running server through its own pages and API, as people would: an
// administrator, a member with a photo, a brand with a logo and cover, the
// site's favicon, views.
import sharp from "sharp";
import { type ServerProcess, signedInMember } from "./server-process";

async function png(color: string, size = 200) {
  return sharp({ create: { width: size, height: size, channels: 3, background: color } })
    .png()
    .toBuffer();
}

function upload(fields: Record<string, string>, files: Record<string, Buffer>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  for (const [name, bytes] of Object.entries(files)) {
    form.set(name, new File([new Uint8Array(bytes)], `${name}.png`, { type: "image/png" }));
  }
  return form;
}

async function post(server: ServerProcess, pathname: string, body: FormData, cookie: string) {
  const response = await fetch(`${server.url}${pathname}`, {
    method: "POST",
    headers: { cookie, origin: server.url },
    body,
    redirect: "manual",
  });
  // A redirect to sign in is a 302 too, but nothing was saved.
  if (response.status !== 302 || response.headers.get("location")?.startsWith("/auth"))
    throw new Error(
      `POST ${pathname} answered ${response.status} ${response.headers.get("location")}: ${await response.text()}`,
    );
  return response;
}

export async function populate(server: ServerProcess) {
  const admin = await signedInMember(server, "admin@example.com", { first: "Ada", last: "Min" });
  const member = await signedInMember(server, "photo.member@example.com", { first: "Pho", last: "Tograph" });
  await post(
    server,
    "/admin/brands",
    upload(
      {
        intent: "create",
        name: "Backup Brand",
        primaryColor: "#224466",
        secondaryColor: "#664422",
        website: "https://brand.example",
        active: "on",
      },
      { logo: await png("#ffcc00"), cover: await png("#0055ff", 600) },
    ),
    admin,
  );
  await post(
    server,
    "/profile/edit",
    upload(
      {
        firstName: "Pho",
        lastName: "Tograph",
        email: "photo.member@example.com",
        username: "pho.tograph",
        title: "Kept in the archive",
        phone: "+1 555 0199",
        bio: 'Ünïcödé and "quotes" survive.',
        linkedinUrl: "https://www.linkedin.com/in/pho",
        companyBrandId: "",
      },
      { photo: await png("#cc3366") },
    ),
    member,
  );
  await post(server, "/admin/settings/general", upload({ companyName: "Backup Group" }, {}), admin);
  await post(server, "/admin/settings/legal", upload({ showStatsToVisitors: "hidden" }, {}), admin);
  await post(server, "/admin/settings/branding", upload({}, { favicon: await png("#22aa55", 64) }), admin);
  for (let visitor = 0; visitor < 3; visitor++) {
    const page = await fetch(`${server.url}/profile/pho.tograph?src=qr`, {
      headers: { "user-agent": `Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Visitor/${visitor}` },
    });
    await page.text();
  }
  return { admin, member };
}
