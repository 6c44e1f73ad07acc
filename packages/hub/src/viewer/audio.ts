/**
 * Folders of audio files (`datasets`' `audiofolder` builder, datasets 5.0 `folder_based_builder.py`): one row
 * per audio file of a split, in path order, its column `audio` (feature `{"_type": "Audio"}`, no sampling
 * rate, as the builder declares it); and, when the files sit at one depth in more than one folder (and no
 * metadata file describes them), a column `label` whose ClassLabel names are the folders' names, sorted.
 * Cells are the public viewer's audio cells (dataset-viewer `viewer_utils/asset.py`: a list of one
 * `{ src, type }`), the source being the file on this hub. Pure: no I/O.
 */

import type { ViewerCell } from "../api/viewer.js";
import { extensionOf, formatExtensions } from "../datasets/tags.js";
import type { Feature } from "./features.js";
import type { LayoutFile } from "./layout.js";

export const AUDIO_FOLDER = "audiofolder";
export const AUDIO_COLUMN = "audio";
export const LABEL_COLUMN = "label";

/** Most rows of an audio split the viewer lists (more make the answer partial). */
export const MAX_AUDIO_ROWS = 100_000;

/** Media types of the audio cells (the public viewer's `.wav`, `.mp3`, `.opus`; the others by their files). */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
	wav: "audio/wav",
	mp3: "audio/mpeg",
	opus: "audio/ogg",
	ogg: "audio/ogg",
	flac: "audio/flac",
	m4a: "audio/mp4",
};

/** Bytes of a file's start that tell its type. */
export const AUDIO_HEAD_BYTES = 12;

/** Whether a path is one of the audio files an audiofolder reads. */
export function isAudioPath(path: string): boolean {
	return formatExtensions(AUDIO_FOLDER).includes(extensionOf(path));
}

/** A split's rows: each file's path and, with labels, its label's index. */
export interface AudioRows {
	columns: string[];
	features: Feature[];
	rows: Array<{ audio: string; label?: number }>;
	partial: boolean;
}

function folderOf(path: string): string {
	const parent = path.slice(0, Math.max(0, path.lastIndexOf("/")));
	return parent.slice(parent.lastIndexOf("/") + 1);
}

/** Python's sort of strings (by code point), not JavaScript's (by UTF-16 unit). */
function byCodePoint(a: string, b: string): number {
	const left = [...a].map((char) => char.codePointAt(0) ?? 0);
	const right = [...b].map((char) => char.codePointAt(0) ?? 0);
	for (let index = 0; index < Math.min(left.length, right.length); index++) {
		const difference = (left[index] ?? 0) - (right[index] ?? 0);
		if (difference !== 0) return difference;
	}
	return left.length - right.length;
}

/**
 * The label names of a config (from all its splits' files, as the builder gathers them), or undefined when
 * it adds no label: fewer than two folders, files at several depths, or metadata files present.
 */
export function audioLabels(files: readonly LayoutFile[], hasMetadata: boolean): string[] | undefined {
	if (hasMetadata) return undefined;
	const labels = new Set<string>();
	const depths = new Set<number>();
	for (const file of files) {
		labels.add(folderOf(file.path));
		depths.add(file.path.split("/").length);
	}
	return labels.size > 1 && depths.size === 1 ? [...labels].sort(byCodePoint) : undefined;
}

/** The rows of one split: its audio files (already in path order) with their labels when the config has them. */
export function audioRows(split: readonly LayoutFile[], labels: readonly string[] | undefined): AudioRows {
	const kept = split.slice(0, MAX_AUDIO_ROWS);
	const features: Feature[] = [{ _type: "Audio" }];
	if (labels === undefined) {
		return {
			columns: [AUDIO_COLUMN],
			features,
			rows: kept.map((file) => ({ audio: file.path })),
			partial: kept.length < split.length,
		};
	}
	const index = new Map(labels.map((name, position) => [name, position]));
	return {
		columns: [AUDIO_COLUMN, LABEL_COLUMN],
		features: [...features, { names: [...labels], _type: "ClassLabel" }],
		rows: kept.map((file) => ({ audio: file.path, label: index.get(folderOf(file.path)) ?? -1 })),
		partial: kept.length < split.length,
	};
}

/**
 * What is wrong with a file's first bytes for its extension's format (a `.wav` that is no RIFF/WAVE file,
 * an empty file), or undefined when they are what the name says.
 */
export function audioHeadProblem(path: string, head: Buffer): string | undefined {
	if (head.length === 0) return "it is empty";
	const ascii = (start: number, end: number): string => head.toString("latin1", start, end);
	switch (extensionOf(path)) {
		case "wav":
			return ["RIFF", "RF64", "BW64"].includes(ascii(0, 4)) && ascii(8, 12) === "WAVE"
				? undefined
				: "it does not start as a WAV file does (RIFF…WAVE)";
		case "flac":
			return ascii(0, 4) === "fLaC" || ascii(0, 3) === "ID3"
				? undefined
				: "it does not start as a FLAC file does (fLaC)";
		case "mp3":
			return ascii(0, 3) === "ID3" || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)
				? undefined
				: "it does not start as an MP3 file does (ID3 or a frame header)";
		case "ogg":
		case "opus":
			return ascii(0, 4) === "OggS" ? undefined : "it does not start as an Ogg file does (OggS)";
		case "m4a":
			return ascii(4, 8) === "ftyp" ? undefined : "it does not start as an MP4 audio file does (ftyp)";
		default:
			return "it is not one of the audio formats the viewer shows";
	}
}

/** The public viewer's audio cell for a file served at `url`. */
export function audioCell(path: string, url: string): ViewerCell {
	return [{ src: url, type: MEDIA_TYPES[extensionOf(path)] ?? "application/octet-stream" }];
}
