/** Joins a base URL and a route with exactly one "/" (leading slashes of the route are dropped). */
export function joinUrl(base: string, route: string): string {
	return `${base}/${route.replace(/^\/+/, "")}`;
}

/** 3.12.1 treats a string as a URL when it starts with http:, https: or "/". */
export function looksLikeUrl(value: string): boolean {
	return /^(https?:|\/)/.test(value);
}

/** Encodes each path segment of a hub model id, keeping the "/" between owner and name. */
export function encodeModelId(modelId: string): string {
	return modelId.split("/").map(encodeURIComponent).join("/");
}
