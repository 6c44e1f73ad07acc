/**
 * The hub's router (router.huggingface.co). `/{provider}/…` reaches a provider's API with a hub
 * token (the harness server checks the token and hands the rest of the path to that provider's
 * protocol; `?_subdomain=` picks a provider host such as fal.ai's queue). `/v1/chat/completions` is
 * the auto-router: the body's `model` is a hub id, optionally `{id}:{provider}`, and the router picks
 * the provider from the model's mapping (providers-current.md §7).
 */
import { field, jsonBody, optionalField, stringField } from "./checks.js";
import { checkMessages } from "./openai-style.js";
import { chatCompletion } from "./replies.js";
import { Refusal, type Endpoint } from "./types.js";

export const ROUTER_HOST = "router.huggingface.co";

export const autoRouterChat: Endpoint = {
	name: "chat completions (auto-router)",
	method: "POST",
	path: "/v1/chat/completions",
	role: "inference",
	handle(request, _params, state) {
		const body = jsonBody(request);
		field(body, "messages", "array");
		checkMessages(body.messages);
		const requested = stringField(body, "model");
		const [hubId = "", policy] = requested.split(":");
		const model = state.hubModel(hubId);
		if (!model) throw new Refusal(404, `Model ${hubId} does not exist`, "model_not_found");
		const providers = Object.entries(model.inferenceProviderMapping)
			.filter(([, entry]) => entry.task === "conversational")
			.map(([provider]) => provider);
		const chosen = policy && policy !== "fastest" && policy !== "cheapest" ? policy : providers[0];
		if (!chosen || !providers.includes(chosen)) {
			throw new Refusal(400, `Model ${hubId} is not supported by provider ${chosen ?? "any provider"}`);
		}
		return chatCompletion(requested, optionalField(body, "stream", "boolean") === true);
	},
};
