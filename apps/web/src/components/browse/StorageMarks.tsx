import type { RepoTreeEntry } from "@modelhub/hub/api";

/**
 * How a file's bytes are kept, as marks after its name: LFS (a pointer in git, the bytes beside it), and
 * Xet when they were uploaded through Xet (the hub keeps them as a recipe of chunks; `xetStored`).
 */
export function StorageMarks({ entry }: { entry: Extract<RepoTreeEntry, { type: "file" }> }) {
	return (
		<>
			{entry.lfs ? <span className="badge badge-lfs">LFS</span> : null}
			{entry.xetStored ? (
				<span
					className="badge badge-lfs badge-xet"
					title="Uploaded through Xet: stored as deduplicated chunks"
				>
					Xet
				</span>
			) : null}
		</>
	);
}

/** The kind line of a binary file: which storage holds it. */
export function storageKind(entry: Extract<RepoTreeEntry, { type: "file" }>): string {
	if (entry.xetStored) return "Binary file stored with Xet";
	return entry.lfs ? "Binary file stored with LFS" : "Binary file";
}
