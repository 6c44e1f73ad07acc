import { errorObjectMessage, type ErrorWording } from "../internal/http.js";

/** Statuses on which 3.12.1 words a chat call's error as "does not seem to support chat completion". */
const CHAT_UNSUPPORTED_STATUSES = [400, 404, 422, 500];

/**
 * 3.12.1's chat wording for `request(…, { chatCompletion: true })` and `streamingRequest`: the
 * JSON text of `error` (non-streaming), or `error` itself (streaming; an object shows its message or
 * its JSON, where 3.12.1 printed "[object Object]"). `server` is the hub model id or the endpoint URL.
 * Only the two raw functions import it, so task functions' bundles do not carry it.
 */
export function chatErrorWording(server: string, stream: boolean | undefined): ErrorWording {
	return (status, error) =>
		CHAT_UNSUPPORTED_STATUSES.includes(status)
			? `Server ${server} does not seem to support chat completion. Error: ${
					!stream
						? JSON.stringify(error)
						: typeof error === "object" && error !== null
							? (errorObjectMessage(error) ?? JSON.stringify(error))
							: error
				}`
			: undefined;
}
