/**
 * A request with an exact path, on its own connection: fetch would normalise `..` and percent-encodings away,
 * and a connection the server closes must not fail the next request.
 */
import { request as httpRequest } from "node:http";

export interface RawResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

export interface RawRequest {
	method?: string;
	path: string;
	headers?: Record<string, string>;
	body?: string | Buffer;
}

export function rawRequest(base: string | URL, options: RawRequest): Promise<RawResponse> {
	const url = new URL(base);
	const headers = { ...options.headers };
	// Node sends DELETE and OPTIONS bodies without framing unless told their length.
	const hasLength = Object.keys(headers).some((name) => name.toLowerCase() === "content-length");
	if (options.body !== undefined && !hasLength)
		headers["content-length"] = String(Buffer.byteLength(options.body));
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			{
				host: url.hostname,
				port: url.port,
				method: options.method ?? "GET",
				path: options.path,
				headers,
				agent: false,
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on("data", (chunk: Buffer) => chunks.push(chunk));
				res.on("end", () =>
					resolve({
						status: res.statusCode ?? 0,
						headers: res.headers,
						body: Buffer.concat(chunks).toString("utf8"),
					}),
				);
				res.on("error", reject);
			},
		);
		req.on("error", reject);
		if (options.body !== undefined) req.write(options.body);
		req.end();
	});
}
