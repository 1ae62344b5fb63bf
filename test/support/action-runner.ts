// Runs a composite action's steps as GitHub's runner does: each `run:` in
// `bash --noprofile --norc -eo pipefail FILE` (shell: bash), its `${{ inputs.x }}` and
// `${{ steps.id.outputs.y }}` expressions replaced by their values (any other expression is an
// error here, not silently empty), fresh GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files per step,
// GITHUB_ENV read after each step into the next ones' environment, and the job stopping at the
// first failing step.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";

interface ActionStep {
  id?: string;
  name?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
  "working-directory"?: string;
}
export interface ActionFile {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface StepRun {
  name: string;
  status: number | null;
  stdout: string;
  stderr: string;
}
export interface JobRun {
  steps: StepRun[];
  outputs: Record<string, string>;
  summary: string;
  /** The job's status: the first failing step's exit code, else 0. */
  status: number | null;
  /** RUNNER_TEMP. */
  temp: string;
}

export function readAction(file: string): ActionFile {
  return parse(readFileSync(file, "utf8")) as ActionFile;
}

/** `name=value` lines and `name<<DELIMITER` blocks, as the runner reads GITHUB_OUTPUT and GITHUB_ENV. */
export function readCommandFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = readFileSync(file, "utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const block = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (block) {
      const end = lines.indexOf(block[2], i + 1);
      out[block[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (lines[i].includes("=")) {
      out[lines[i].slice(0, lines[i].indexOf("="))] = lines[i].slice(lines[i].indexOf("=") + 1);
    }
  }
  return out;
}

export interface JobContext {
  actionPath: string;
  workspace: string;
  /** Where the runner's files go (RUNNER_TEMP and the command files). */
  temp: string;
  inputs: Record<string, string>;
  /** The event's variables: GITHUB_EVENT_NAME, GITHUB_BASE_REF... */
  env: Record<string, string>;
}

export function runAction(action: ActionFile, job: JobContext): JobRun {
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) inputs[name] = job.inputs[name] ?? spec.default ?? "";
  const stepOutputs: Record<string, Record<string, string>> = {};
  const expand = (text: string) =>
    text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
      const input = /^inputs\.([\w-]+)$/.exec(expression);
      if (input) return inputs[input[1]] ?? "";
      const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
      if (output) return stepOutputs[output[1]]?.[output[2]] ?? "";
      throw new Error(`the runner of this test does not evaluate \${{ ${expression} }}`);
    });
  mkdirSync(job.temp, { recursive: true });
  const envFile = path.join(job.temp, "env");
  writeFileSync(envFile, "");
  let exported: Record<string, string> = {};
  const steps: StepRun[] = [];
  let summary = "";
  let status: number | null = 0;
  for (const [i, step] of action.runs.steps.entries()) {
    if (step.run === undefined || step.shell !== "bash") throw new Error(`step ${i}: only shell: bash run steps are run here`);
    const output = path.join(job.temp, `output-${i}`);
    const stepSummary = path.join(job.temp, `summary-${i}`);
    const script = path.join(job.temp, `step-${i}.sh`);
    for (const f of [output, stepSummary]) writeFileSync(f, "");
    writeFileSync(script, expand(step.run));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...job.env,
      ...exported,
      GITHUB_ACTIONS: "true",
      GITHUB_ACTION_PATH: job.actionPath,
      GITHUB_WORKSPACE: job.workspace,
      RUNNER_TEMP: job.temp,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: stepSummary,
      GITHUB_ENV: envFile,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v))])),
    };
    const cwd = path.resolve(job.workspace, expand(step["working-directory"] ?? "."));
    const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], { cwd, env, encoding: "utf8" });
    steps.push({ name: step.name ?? `step ${i}`, status: r.status, stdout: r.stdout, stderr: r.stderr });
    summary += readFileSync(stepSummary, "utf8");
    if (step.id) stepOutputs[step.id] = readCommandFile(output);
    exported = readCommandFile(envFile);
    if (r.status !== 0) {
      status = r.status;
      break;
    }
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, o]) => [name, expand(o.value)]));
  return { steps, outputs, summary, status, temp: job.temp };
}
