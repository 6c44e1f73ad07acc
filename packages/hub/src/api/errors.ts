/**
 * Error answers: `ErrorBody` with a 4xx or 5xx status; a 404 huggingface_hub turns into its own
 * exception has `X-Error-Code` (a HubErrorCode) and `X-Error-Message`. Both are declared by the
 * module that makes every error answer (src/errors.ts). LFS (`{ message }`) and Xet keep their own
 * protocols' bodies.
 */
import type { ErrorBody } from "../errors.js";

export type { ErrorBody, HubErrorCode } from "../errors.js";

/** A 409 of `POST /api/repos/create`: the repository exists, at `url`. */
export interface RepoExistsBody extends ErrorBody {
	url: string;
}
