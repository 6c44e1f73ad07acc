/**
 * A provider's file host: generated images, audio and videos are handed out as URLs on it and
 * downloaded with a plain GET, without credentials. (The host names are the harness's; the clients
 * only ever see them in answers.)
 */
import { MEDIA, mediaReply } from "./replies.js";
import { Refusal, type MediaFile, type ProviderHost } from "./types.js";

export function mediaHost(host: string): ProviderHost {
	return {
		host,
		endpoints: [
			{
				name: "file download",
				method: "GET",
				path: /^\/files\/[^/]+\/(?<file>[^/]+)$/,
				role: "follow-up",
				needsAuth: false,
				handle(_request, params) {
					const file = params.file as MediaFile;
					if (!(file in MEDIA)) throw new Refusal(404, `No such file: ${file}`);
					return mediaReply(file);
				},
			},
		],
	};
}
