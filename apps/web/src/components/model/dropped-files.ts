/**
 * The files of a drop: dropped folders are walked through the File and Directory Entries API
 * (`webkitGetAsEntry`, in every current browser), with their relative paths; plain files (and files of a
 * synthetic DataTransfer, which has no entries) come as they are. Bounded: at most `limit` files.
 */
import type { ChosenFile } from "../../view/upload";

interface Entry {
	isFile: boolean;
	isDirectory: boolean;
	name: string;
	fullPath: string;
	file?: (success: (file: File) => void, failure: (error: unknown) => void) => void;
	createReader?: () => {
		readEntries: (success: (entries: Entry[]) => void, failure: (error: unknown) => void) => void;
	};
}

async function walk(entry: Entry, out: ChosenFile[], limit: number): Promise<void> {
	if (out.length >= limit) return;
	if (entry.isFile && entry.file) {
		const file = await new Promise<File>((resolve, reject) => entry.file?.(resolve, reject));
		out.push({ file, name: file.name, relativePath: entry.fullPath.replace(/^\/+/, "") });
		return;
	}
	const reader = entry.isDirectory ? entry.createReader?.() : undefined;
	if (!reader) return;
	// readEntries answers in batches (100 in Chromium) until an empty one.
	for (;;) {
		const batch = await new Promise<Entry[]>((resolve, reject) => reader.readEntries(resolve, reject));
		if (batch.length === 0) return;
		for (const child of batch) {
			if (out.length >= limit) return;
			await walk(child, out, limit);
		}
	}
}

export async function droppedFiles(data: DataTransfer, limit: number): Promise<ChosenFile[]> {
	const out: ChosenFile[] = [];
	const entries: Entry[] = [];
	const loose: File[] = [];
	// Entries and files must be taken during the drop event itself: the list empties once it returns.
	for (const item of Array.from(data.items ?? [])) {
		if (item.kind !== "file") continue;
		const entry = (item.webkitGetAsEntry?.() ?? null) as Entry | null;
		if (entry?.isDirectory) entries.push(entry);
		else {
			const file = item.getAsFile();
			if (file) loose.push(file);
		}
	}
	if (entries.length === 0 && loose.length === 0) loose.push(...Array.from(data.files ?? []));
	for (const file of loose) if (out.length < limit) out.push({ file, name: file.name });
	for (const entry of entries) await walk(entry, out, limit);
	return out;
}
