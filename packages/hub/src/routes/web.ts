import type { FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";
import { acceptsHtml, JSON_TYPE, pathOf, sendError } from "../http.js";

export interface WebRoutesOptions {
	/** The built web app, or undefined to serve the built-in "not built" page. */
	webDir: string | undefined;
	/** Demo media of @modelhub/tasks, served at /assets/demo/. */
	demoDir: string;
}

/** Shown when the web app has not been built. No script and no inline style, so the CSP holds. */
export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ModelHub</title>
</head>
<body>
<h1>ModelHub</h1>
<p>The hub API is running, but the web app is not built.</p>
<p>Build it with <code>npm run build</code> (or point <code>MODELHUB_WEB_DIR</code> at a built copy) and restart the server.</p>
<ul>
<li><a href="/api/models">/api/models</a>: models</li>
<li><a href="/api/tasks">/api/tasks</a>: the task catalogue</li>
<li><a href="/api/libraries">/api/libraries</a>: libraries</li>
<li><a href="/api/pipelines">/api/pipelines</a>: pipeline types</li>
<li><a href="/healthz">/healthz</a>: health</li>
</ul>
</body>
</html>
`;

const HTML_TYPE = "text/html; charset=utf-8";

function isApiPath(path: string): boolean {
	return path === "/api" || path.startsWith("/api/");
}

/**
 * Static files: the demo media and the web app, with the single-page-app fallback (index.html for
 * browser navigations that match no file), and JSON 404s for everything else.
 */
export async function webRoutes(app: FastifyInstance, options: WebRoutesOptions): Promise<void> {
	const { webDir, demoDir } = options;

	await app.register(fastifyStatic, {
		root: demoDir,
		prefix: "/assets/demo/",
		decorateReply: false,
		index: false,
		dotfiles: "deny",
		maxAge: "1h",
	});

	if (webDir !== undefined) {
		await app.register(fastifyStatic, {
			root: webDir,
			prefix: "/",
			index: ["index.html"],
			dotfiles: "deny",
			// The web build writes .br and .gz beside each file; send those to clients that accept them.
			preCompressed: true,
			// Hashed build outputs may be cached for long; index.html must be revalidated.
			setHeaders(reply, path) {
				if (/[\\/]assets[\\/]/.test(path))
					reply.header("cache-control", "public, max-age=31536000, immutable");
				else reply.header("cache-control", "no-cache");
			},
		});
	} else {
		app.get("/", async (_request, reply) =>
			reply.type(HTML_TYPE).header("cache-control", "no-cache").send(NOT_BUILT_PAGE),
		);
	}

	app.setNotFoundHandler(async (request, reply) => {
		const path = pathOf(request);
		const navigation =
			(request.method === "GET" || request.method === "HEAD") &&
			!isApiPath(path) &&
			!path.startsWith("/assets/demo/") &&
			acceptsHtml(request);
		if (navigation) {
			if (webDir !== undefined)
				return reply.header("cache-control", "no-cache").sendFile("index.html", webDir);
			return reply.type(HTML_TYPE).header("cache-control", "no-cache").send(NOT_BUILT_PAGE);
		}
		reply.type(JSON_TYPE);
		return sendError(reply, 404, isApiPath(path) ? "no such API route" : "not found");
	});
}
