// `npm run db:migrate`: applies the committed migrations to the configured
// database (the server also does this when it starts).
import "./startup-faults";
import { connectDatabase } from "~/.server/platform/db/connect";

const handle = await connectDatabase();
console.info(`[db] migrations applied (${handle.kind})`);
await handle.close();
