/**
 * The hub (huggingface.co) as inference clients use it: model info at `/api/models/{id}`, with
 * `expand[]=…` (or `expand=…`) selecting fields such as `inferenceProviderMapping` (an object keyed
 * by provider, in the user's order). Unknown models are 404 `RepoNotFound`; a token, when sent, must
 * be valid. huggingface_hub 2.0.0 also reads the AI-agent registry at `/api/agent-harnesses` once a
 * day (utils/_detect_agent.py), for its User-Agent.
 */
import { json } from "./replies.js";
import { Refusal, type ProviderHost } from "./types.js";

export const HUB_HOST = "huggingface.co";

export function hubHost(isValidHubToken: (authorization: string | undefined) => boolean): ProviderHost {
	return {
		host: HUB_HOST,
		endpoints: [
			{
				name: "agent harness registry",
				method: "GET",
				path: "/api/agent-harnesses",
				role: "follow-up",
				needsAuth: false,
				handle: () => json({ standardEnvVars: ["AI_AGENT", "AGENT"], harnesses: {} }),
			},
			{
				name: "model info",
				method: "GET",
				path: /^\/api\/models\/(?<model>[^/]+\/[^/]+?)(?:\/revision\/(?<revision>[^/]+))?$/,
				role: "follow-up",
				needsAuth: false,
				handle(request, params, state) {
					const authorization = request.headers.authorization;
					if (authorization !== undefined && !isValidHubToken(authorization)) {
						throw new Refusal(401, "Invalid credentials in Authorization header");
					}
					const model = state.hubModel(params.model ?? "");
					if (!model) throw new Refusal(404, "Repository not found", "RepoNotFound");
					const expand = [...request.query.getAll("expand[]"), ...request.query.getAll("expand")];
					const info: Record<string, unknown> = {
						_id: `66${Buffer.from(model.id).toString("hex").slice(0, 22)}`,
						id: model.id,
						modelId: model.id,
						author: model.id.split("/")[0],
						sha: "0123456789abcdef0123456789abcdef01234567",
						private: false,
						disabled: false,
						gated: false,
						downloads: 1234,
						likes: 56,
						tags: model.tags,
						pipeline_tag: model.pipeline_tag,
						library_name: model.library_name,
						inferenceProviderMapping: model.inferenceProviderMapping,
					};
					if (model.mask_token) info.mask_token = model.mask_token;
					if (expand.length === 0) {
						delete info.inferenceProviderMapping;
						return json(info);
					}
					// With expand, the hub answers the id fields and what was asked for.
					const answer: Record<string, unknown> = { _id: info._id, id: info.id };
					for (const key of expand) if (key in info) answer[key] = info[key];
					return json(answer);
				},
			},
		],
	};
}
