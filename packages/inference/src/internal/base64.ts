/** Read on use: a top-level read of a global would be kept by bundlers as a possible side effect. */
const nodeBuffer = () => (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** Base64 of raw bytes; Node's Buffer when present, else btoa (as 3.12.1 does). */
export function bytesToBase64(bytes: Uint8Array): string {
	const NodeBuffer = nodeBuffer();
	if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
	let binary = "";
	const step = 0x8000;
	for (let i = 0; i < bytes.length; i += step) {
		binary += String.fromCharCode(...bytes.subarray(i, i + step));
	}
	return btoa(binary);
}

export async function blobToBase64(blob: Blob | ArrayBuffer): Promise<string> {
	const buffer = blob instanceof ArrayBuffer ? blob : await blob.arrayBuffer();
	return bytesToBase64(new Uint8Array(buffer));
}

function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
	const NodeBuffer = nodeBuffer();
	if (NodeBuffer) {
		const decoded = NodeBuffer.from(base64, "base64");
		const out = new Uint8Array(decoded.byteLength);
		out.set(decoded);
		return out;
	}
	const binary = atob(base64);
	const out = new Uint8Array(binary.length);
	for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
	return out;
}

/** 3.12.1 turns base64 images into Blobs typed image/jpeg (it fetches a data: URL). */
export function base64ToJpegBlob(base64: string): Blob {
	return new Blob([base64ToBytes(base64)], { type: "image/jpeg" });
}
