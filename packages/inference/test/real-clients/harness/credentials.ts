/**
 * The credentials the harness's users hold: one hub token, one key per provider. Servers accept
 * exactly these; the environment of an "env" snippet holds them under the conventional names.
 */
export const HUB_TOKEN = "hf_harnessHubToken7Qm2Xv9Lk4";

/** A provider's own key (fal.ai keys are `id:secret`; the others opaque strings). */
export function providerKey(provider: string): string {
	return provider === "fal-ai" ? "4f6b1c2e-harness:9d3a7e51c0b84f26" : `sk-${provider}-harness-5Zp8Wq1Rt6`;
}

/** `TOGETHER_API_KEY`, `FAL_AI_API_KEY`, …: where users keep a provider's key. */
function providerKeyEnvName(provider: string): string {
	return `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_API_KEY`;
}

/** The environment of a user who keeps their tokens in the environment. */
export function tokenEnvironment(providers: readonly string[]): Record<string, string> {
	const env: Record<string, string> = { HF_TOKEN: HUB_TOKEN };
	for (const provider of providers) env[providerKeyEnvName(provider)] = providerKey(provider);
	return env;
}

/** Whether an Authorization value carries the hub token. */
export function isHubAuthorization(value: string | undefined): boolean {
	return value === `Bearer ${HUB_TOKEN}`;
}
