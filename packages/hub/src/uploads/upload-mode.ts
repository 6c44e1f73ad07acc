import type { UploadMode } from "../api/uploads.js";
import { isLfsFile } from "../repos/lfs.js";

/**
 * How a file is uploaded (preupload's `uploadMode`): `regular` files travel inline in the commit
 * (base64), `lfs` files beforehand through LFS or Xet. LFS for files above the inline limit, weights
 * and archives by extension (the list behind new repositories' `.gitattributes`), and binary files
 * (a NUL byte in the first 512 bytes the client samples, as git itself decides). Empty files are
 * always regular (huggingface_hub sends them inline whatever the answer).
 */
export function uploadMode(
	file: { path: string; size: number; sample: Buffer },
	maxRegularBytes: number,
): UploadMode {
	if (file.size === 0) return "regular";
	if (file.size > maxRegularBytes) return "lfs";
	if (isLfsFile(file.path, file.size)) return "lfs";
	return file.sample.includes(0) ? "lfs" : "regular";
}
