/** The two endpoint shapes most providers are made of: a JSON submission, and a read of a job it holds. */
import { type JsonObject, jsonBody } from "./checks.js";
import {
	Refusal,
	type Endpoint,
	type Job,
	type ProtocolState,
	type ProviderRequest,
	type Reply,
} from "./types.js";

export interface Submission {
	body: JsonObject;
	request: ProviderRequest;
	params: Record<string, string>;
	state: ProtocolState;
}

/** POST with a JSON object body (refused otherwise), answered by `answer`. */
export function postJson(
	name: string,
	path: Endpoint["path"],
	answer: (submission: Submission) => Reply,
): Endpoint {
	return {
		name,
		method: "POST",
		path,
		role: "inference",
		handle: (request, params, state) => answer({ body: jsonBody(request), request, params, state }),
	};
}

export interface JobRead {
	/** Where the job id is: the path's `{id}` by default. */
	id?: (request: ProviderRequest, params: Record<string, string>) => string;
	/** Polls without credentials (the id is the capability). */
	public?: boolean;
}

/** GET of a job `provider` holds (a status, a result); 404 for an unknown id. */
export function readJob(
	provider: string,
	name: string,
	path: Endpoint["path"],
	answer: (job: Job, id: string) => Reply,
	options: JobRead = {},
): Endpoint {
	return {
		name,
		method: "GET",
		path,
		role: "follow-up",
		...(options.public ? { needsAuth: false } : {}),
		handle(request, params, state) {
			const id = options.id ? options.id(request, params) : (params.id ?? "");
			const job = state.job(provider, id);
			if (!job) throw new Refusal(404, `${name}: no job ${id}`);
			return answer(job, id);
		},
	};
}

/** Stores a job for the submission's provider, with the credential form it was submitted with. */
export function addJob(
	provider: string,
	{ request, state }: Submission,
	model: string,
	result: unknown,
): string {
	return state.addJob(provider, { model, result, pendingPolls: 0, credential: request.credential.kind });
}
