/** Error answers. LFS (`{ message }`) and Xet keep their own protocols' bodies. */

/** The body of a JSON error answer: what went wrong, worded for a person. */
export interface ErrorBody {
	error: string;
}

/** A 409 of `POST /api/repos/create`: the repository exists, at `url`. */
export interface RepoExistsBody extends ErrorBody {
	url: string;
}
