/**
 * Downloads a file that needs the hub token (a private model's): a link cannot carry an Authorization
 * header and the token never goes into a URL, so the file is fetched with the header and handed to the
 * browser as a blob URL. A redirect to another origin (presigned storage) drops the header (Fetch
 * standard), so the token stays with the hub.
 */
import { apiErrorOf, reachHub } from "./http";

export async function downloadWithToken(url: string, token: string, name: string): Promise<void> {
	const response = await reachHub(url, { headers: { Authorization: `Bearer ${token}` } });
	if (!response.ok) throw await apiErrorOf(response, url);
	const blob = await response.blob();
	const href = URL.createObjectURL(blob);
	const link = document.createElement("a");
	link.href = href;
	link.download = name;
	document.body.append(link);
	link.click();
	link.remove();
	// The browser has taken the blob once click() returned; keep it a moment for slow starts.
	setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
