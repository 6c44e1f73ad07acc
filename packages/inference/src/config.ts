export const DEFAULT_HUB_URL = "https://huggingface.co";
const DEFAULT_ROUTER_URL = "https://router.huggingface.co";

export interface UrlOverrides {
	hubUrl?: string;
	routerUrl?: string;
}

/** Read lazily so that importing the package does no work, and guarded for runtimes without `process`. */
function readEnv(name: string): string | undefined {
	const env = typeof process !== "undefined" ? process.env : undefined;
	const value = env?.[name];
	return value ? value : undefined;
}

function trimSlashes(url: string): string {
	return url.replace(/\/+$/, "");
}

export function getHubUrl(options?: UrlOverrides): string {
	return trimSlashes(options?.hubUrl ?? readEnv("MODELHUB_HUB_URL") ?? DEFAULT_HUB_URL);
}

export function getRouterUrl(options?: UrlOverrides): string {
	return trimSlashes(options?.routerUrl ?? readEnv("MODELHUB_ROUTER_URL") ?? DEFAULT_ROUTER_URL);
}
