/**
 * Uploads: `POST /api/models/{id}/preupload/{rev}` and `POST /api/models/{id}/commit/{branch}`. The
 * LFS batch API and Xet keep their own protocols' formats and are not part of this contract.
 */

/** The body of `POST /api/validate-yaml` (huggingface_hub calls it before uploading a README.md). */
export interface ValidateYamlRequest {
	content: string;
	/** Model cards are checked for the model fields; dataset cards for YAML only. */
	repoType?: "model" | "dataset";
}

/** A problem of a card's front matter. */
export interface YamlMessage {
	message: string;
}

/** The answer of `POST /api/validate-yaml`; with errors it is a 400 whose `error` joins them. */
export interface ValidateYamlAnswer {
	error?: string;
	errors: YamlMessage[];
	warnings: YamlMessage[];
}

/** The query parameters of preupload and commit requests. */
export interface UploadParameters {
	/** Refused with a message: this hub has no pull requests. */
	create_pr?: boolean;
}

/** The commit's header: the first NDJSON line's `value`, or the multipart `header` field as JSON. */
export interface CommitHeaderRequest {
	/** The first line of a multi-line summary moves the rest to the description. */
	summary: string;
	description?: string;
	/** The commit the branch must still point to (5 to 40 hexadecimal digits). */
	parentCommit?: string | null;
}

/** The answer of a commit. */
export interface CommitAnswer {
	success: true;
	commitOid: string;
	commitUrl: string;
	/** The pull request the commit opened or went to (`{page}/discussions/N`), else null. */
	pullRequestUrl: string | null;
}

/** The body of a preupload request (huggingface_hub sends up to 256 files at a time). */
export interface PreuploadRequest {
	files: Array<{ path: string; size: number; /** The file's first 512 bytes, base64. */ sample?: string }>;
	/** A .gitignore to apply instead of the revision's. */
	gitIgnore?: string;
}

/** How a file is to be uploaded: inline in the commit, or beforehand through LFS or Xet. */
export type UploadMode = "regular" | "lfs";

export interface PreuploadAnswer {
	files: Array<{
		path: string;
		uploadMode: UploadMode;
		shouldIgnore: boolean;
		/** The stored file's oid (its sha256 for LFS files), when the revision has the path. */
		oid?: string;
	}>;
	commitOid: string;
}
