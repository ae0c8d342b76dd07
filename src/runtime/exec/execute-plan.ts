import { join } from "node:path";
import { anchorApplies, applyAnchorEnv, resolveAnchorPath } from "./anchor.js";
import { argsShapeProblem, callerParamsProblem } from "./caller-params.js";
import { buildExecutionConfig, toolParams } from "./execution-config.js";
import { pyJsonDumps } from "../py-json.js";
import { sealAll, valueSeal } from "./seal-values.js";
import { textSeal } from "./seal-text.js";
import { executePrimitive } from "./execute-primitive.js";
import type { Execa } from "./run-process.js";
import { PROCESS_PRIMITIVES, type ChainPlan, type ConfigResolveStep } from "./plan.js";
import { changedNames, resolveChainEnv, resolveChainEnvOriginal, sealUnauthored, type Env } from "./resolve-env.js";
import type { CheckoutPolicy } from "./resolve-interpreter.js";
import { templateString } from "./substitute-params.js";
import { depsEnabled, depsScope, verifyDeps, type DepFile } from "./verify-deps.js";
import { chainValidationErrorResponse, dryRunResponse, interpretProcessResult, toolErrorResponse, toolSuccessResponse, type ExecutionOutcome } from "./tool-response.js";
import { readRegularFile } from "../read-file.js";

/** Run-time settings of `executePlan`. */
export interface ExecuteOptions {
  projectPath: string;
  userSpace: string;
  systemSpace: string;
  /** Inherited environment (default `process.env`). */
  osEnv?: Readonly<Record<string, string | undefined>>;
  /** `.env` content, or null for none; default: `<projectPath>/.env` if it exists. */
  dotenv?: string | null;
  includeDotenv?: boolean;
  /** A bundle run's checkout: interpreter resolution takes no file inside it (decisions.md #23). */
  checkout?: CheckoutPolicy;
  /** `ours` (default, decisions.md #11: tool over runtime over primitive over OS) or the original's order. */
  envPrecedence?: "ours" | "original";
  /**
   * `true` applies the original's pass-1 quoting of `${VAR}` values holding shell metacharacters, for
   * comparisons with it. Either way a shell's `-c` script gets its values as data (decisions.md #10).
   */
  shellQuote?: boolean | "auto";
  /** Overrides of the plan's path context (e.g. where the tool is installed now). */
  context?: Partial<ChainPlan["context"]>;
  dryRun?: boolean;
  /** Called with the plan's enabled `verify_deps` settings and the scope's anchor folder before the spawn; throw to refuse. */
  verifyDeps?: (settings: Readonly<Record<string, unknown>>, anchorPath: string) => void;
  /**
   * Verifies one file of the `verify_deps` scope (its signature, against trust from outside the
   * checkout); throw to refuse. Without it a plan's `verify_deps` is not enforced (verify-deps.ts).
   */
  verifyDependency?: (file: DepFile) => void;
  /** `verify_deps` settings applied when the plan's runtime enables none (a bundle run's own scope). */
  defaultVerifyDeps?: Readonly<Record<string, unknown>>;
  /** Absolute paths of files already checked against the plan (its chain files), left out of the walk. */
  verifiedFiles?: readonly string[];
  /** The tool's CONFIG_SCHEMA: a config value that decides what runs may be replaced only by a declared parameter (caller-params.ts). */
  configSchema?: unknown;
  /** Resolves a `config_resolve` spec from `.ai/config/`; without it those steps are skipped. */
  resolveConfig?: (spec: unknown) => Record<string, unknown> | undefined;
  extraEnv?: Readonly<Record<string, string>>;
  maxOutputBytes?: number;
  /** The spawner, when the host brings its own execa (default: import execa beside the runtime). */
  execa?: Execa;
}

/**
 * Runs a planned tool chain in the original's order: anchor, chain env, anchor env paths and cwd,
 * config_resolve, execution config (pass 1 and 2), primitive stages 1 and 2, spawn. Returns the
 * `rye_execute` response (success, error, or dry-run validation).
 */
export async function executePlan(plan: ChainPlan, params: Readonly<Record<string, unknown>>, options: ExecuteOptions) {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  if (options.dryRun) {
    return plan.validation.valid
      ? dryRunResponse(plan.item_id, plan.chain, plan.validation.validated_pairs)
      : chainValidationErrorResponse(plan.item_id, plan.validation.issues);
  }
  if (!plan.validation.valid) {
    return toolErrorResponse(plan.item_id, `Chain validation failed: ${plan.validation.issues.join("; ")}`, plan.chain, elapsed());
  }
  let prepared;
  try {
    prepared = prepare(plan, params, options);
  } catch (e) {
    return toolErrorResponse(plan.item_id, e instanceof Error ? e.message : String(e), [], elapsed());
  }
  const outcome = await runChain(plan, prepared, options);
  const response = outcome.success
    ? toolSuccessResponse(plan.item_id, outcome.data, plan.chain, elapsed())
    : toolErrorResponse(plan.item_id, outcome.error, plan.chain, elapsed(), outcome.data);
  // Extra metadata keys appear only when set, so ordinary responses keep the original's shape.
  const metadata = response.metadata as Record<string, unknown>;
  if (outcome.timed_out) metadata.timed_out = true;
  if (outcome.truncated) metadata.output_truncated = true;
  return response;
}

function prepare(plan: ChainPlan, params: Readonly<Record<string, unknown>>, options: ExecuteOptions) {
  const osEnv = options.osEnv ?? process.env;
  const ctx: Record<string, string> = {
    ...(plan.context as unknown as Record<string, string>),
    project_path: options.projectPath,
    user_space: options.userSpace,
    system_space: options.systemSpace,
    ...(options.context as Record<string, string> | undefined),
  };
  const refused = argsShapeProblem(plan.config) ?? callerParamsProblem(params, plan.config, Object.keys(ctx), options.configSchema);
  if (refused) throw new Error(refused);
  const anchorActive = plan.anchor !== null && anchorApplies(plan.anchor, ctx.tool_dir!);
  if (anchorActive) ctx.anchor_path = resolveAnchorPath(plan.anchor!, ctx);
  checkDependencies(plan, ctx, options);
  const dotenv = options.dotenv === undefined ? readDotenv(options.projectPath) : (options.dotenv ?? undefined);
  const sources = { osEnv, projectPath: options.projectPath, dotenv, includeDotenv: options.includeDotenv, checkout: options.checkout };
  const resolveEnv = options.envPrecedence === "original" ? resolveChainEnvOriginal : resolveChainEnv;
  // Every value (the caller's, rye's paths, params_json, the environment's text) goes through
  // templating as one opaque token: single-pass. Only the chain's own text is a template.
  const seal = valueSeal();
  const texts = textSeal(seal);
  const track = { seal: texts.seal, authored: new Set<string>() };
  const env: Env = resolveEnv(plan.env_configs, ctx, sources, track);
  const parameters: Record<string, unknown> = { ...params };
  if (anchorActive) {
    const before = { ...env };
    applyAnchorEnv(plan.anchor!, env, ctx, osEnv);
    for (const k of changedNames(before, env)) track.authored.delete(k);
    if (plan.anchor!.cwd) parameters.cwd = templateString(String(plan.anchor!.cwd), ctx);
  }
  applyConfigResolve(plan.config_resolve, plan.item_id, parameters, options.resolveConfig);
  // The passes get the env with what the chain did not write sealed; the checks and the script
  // binder read the text itself, and judge as templates only the variables the chain wrote.
  const sealedEnv = sealUnauthored(env, track);
  const envTemplates = Object.fromEntries([...track.authored].filter((k) => Object.hasOwn(sealedEnv, k)).map((k) => [k, sealedEnv[k]!]));
  // rye's path context wins over every parameter (callerParamsProblem refused any caller key among them).
  return { env: texts.restore(sealedEnv), sealedEnv, envTemplates, seal, texts, parameters: { ...parameters, ...ctx }, ctx, osEnv, callerParams: params };
}

/**
 * `verify_deps` before the spawn: the plan's settings when its runtime enables them, else the
 * caller's default scope (a bundle run's). The scope is the anchor folder when the anchor is active,
 * else the tool's folder (the context's `anchor_path` until an anchor resolves it).
 */
function checkDependencies(plan: ChainPlan, ctx: Record<string, string>, options: ExecuteOptions): void {
  const settings = depsEnabled(plan.verify_deps) ? plan.verify_deps! : options.defaultVerifyDeps;
  if (!settings) return;
  options.verifyDeps?.(settings, ctx.anchor_path ?? ctx.tool_dir ?? "");
  if (options.verifyDependency) verifyDeps(depsScope(settings, ctx), options.verifyDependency, new Set(options.verifiedFiles ?? []));
}

function applyConfigResolve(steps: ConfigResolveStep[], toolId: string, parameters: Record<string, unknown>, resolve: ExecuteOptions["resolveConfig"]) {
  if (!resolve) return;
  for (const step of steps) {
    const resolved = resolve(step.spec);
    if (!resolved || Object.keys(resolved).length === 0) continue;
    if (step.index === 0) {
      parameters.resolved_config = resolved;
      continue;
    }
    const tools = (resolved.tools ?? {}) as Record<string, Record<string, unknown>>;
    const execConfig = { ...((resolved.defaults ?? {}) as Record<string, unknown>), ...(tools[toolId] ?? {}) };
    const allowed = new Set(["timeout", ...step.execution_params]);
    for (const [k, v] of Object.entries(execConfig)) if (allowed.has(k) && !Object.hasOwn(parameters, k)) parameters[k] = v;
  }
}

async function runChain(plan: ChainPlan, prepared: ReturnType<typeof prepare>, options: ExecuteOptions): Promise<ExecutionOutcome> {
  if (plan.root.executor_id !== null && plan.root.executor_id !== undefined) {
    return { success: false, error: `Chain root has executor_id: ${plan.root.item_id}` };
  }
  try {
    const paths = { project_path: options.projectPath, user_space: options.userSpace, system_space: options.systemSpace, tool_path: prepared.ctx.tool_path! };
    const { seal, texts } = prepared;
    const sealed = sealAll(seal, prepared.parameters);
    const paramsJson = seal.seal(pyJsonDumps(toolParams(prepared.parameters, { ...plan.config, ...prepared.parameters }))) as string;
    // An environment variable's text is a value too: what `${VAR}` puts in is sealed at pass 1 and
    // at stage 1, and `texts.restore` puts back both kinds of token.
    const config = buildExecutionConfig(plan.config, prepared.sealedEnv, sealed, sealAll(seal, paths), { shellQuote: options.shellQuote === true, paramsJson, seal: texts.seal });
    if (options.extraEnv) config.env = { ...(config.env as Env), ...options.extraEnv };
    Object.assign(config, { project_path: paths.project_path, user_space: paths.user_space, system_space: paths.system_space });
    if (!PROCESS_PRIMITIVES.includes(plan.root.item_id)) return { success: false, error: `Unknown primitive: ${plan.root.item_id}` };
    const result = await executePrimitive(config, { ...config, ...sealed }, {
      restore: texts.restore,
      seal: texts.seal,
      osEnv: prepared.osEnv,
      maxOutputBytes: options.maxOutputBytes,
      execa: options.execa,
      script: { chainConfig: plan.config, env: prepared.env, envTemplates: prepared.envTemplates, parameters: prepared.parameters, callerParams: prepared.callerParams },
    });
    const outcome = interpretProcessResult(result);
    if (result.timed_out) outcome.timed_out = true;
    if (result.truncated) outcome.truncated = true;
    return outcome;
  } catch (e) {
    return { success: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** The project's .env, or undefined when it has none; any other failure (a FIFO, a device, too large) refuses the run. */
function readDotenv(projectPath: string): string | undefined {
  const file = join(projectPath, ".env");
  try {
    return readRegularFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new Error(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
