/** `homed doctor`: checks what homed needs, one line each; exit 1 when one fails. */
import { defineCommand } from "../command.ts";

export const doctorCommand = defineCommand({
  name: "doctor",
  summary: "check the database, migrations, vector and full-text search, jieba, ONNX Runtime, data folder",
  usage: ["homed doctor [-data DIR] [-db URL] [-models DIR]"],
  description: "Prints one line a check; exits 1 when any check fails.",
  flags: [],
  run: async ({ settings }, io) => {
    const { formatResult, runDoctor } = await import("../../doctor/index.ts");
    const ok = await runDoctor(settings(), (result) => io.stdout(`${formatResult(result)}\n`));
    return ok ? 0 : 1;
  },
});
