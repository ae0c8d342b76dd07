// Writes schema/rye.config.schema.json from the compiled settings list (run after `npm run build`).
import { writeFileSync } from "node:fs";
const { configSchema } = await import("../dist/project/config-schema.js");
writeFileSync(new URL("../schema/rye.config.schema.json", import.meta.url), `${JSON.stringify(configSchema(), null, 2)}\n`);
