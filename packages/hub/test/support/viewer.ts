/**
 * What the dataset viewer's test files share: the small limits their hubs run with (so that the hostile
 * files meet them) and a GET of a /datasets-server route, with a token or without.
 */
export const VIEWER_TEST_LIMITS = { memoryMb: 128, timeoutMs: 20_000, cellChars: 1000 } as const;

export interface ViewerAnswer<T> {
	status: number;
	body: T;
	headers: Headers;
}

export async function viewerGet<T>(hubUrl: string, path: string, token?: string): Promise<ViewerAnswer<T>> {
	const response = await fetch(`${hubUrl}/datasets-server${path}`, {
		headers: token ? { authorization: `Bearer ${token}` } : {},
	});
	return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}
