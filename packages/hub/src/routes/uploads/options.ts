import type { AuthFailureLimits } from "../../accounts/auth-limits.js";
import type { GitServer } from "../../git/serve.js";
import type { ServiceContext } from "../../services/context.js";

/** What the upload routes (preupload, commits, LFS, Xet) are given. */
export interface UploadRoutesOptions {
	/** The services' context: what they read, store and write with, and the upload settings. */
	services: ServiceContext;
	/** The URL clients reach the hub at, when configured (MODELHUB_PUBLIC_URL). */
	publicUrl: string | undefined;
	/** Failed authentications per address: bad upload URLs and Xet tokens count too. */
	limiter: AuthFailureLimits;
	/** Git serving: the LFS batch API answers git-lfs downloads with its objects (src/git/serve.ts). */
	git?: GitServer | undefined;
}
