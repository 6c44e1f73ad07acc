/** What a weights reader answers: the facts, or why there are none, and what reading cost. */
export type WeightsResult<Info> =
	| {
			info: Info;
			/** The files whose headers gave the facts. */
			files: string[];
			bytesRead: number;
	  }
	| {
			info: undefined;
			/** Why the facts are missing, one line each for the log; empty when the revision has no such weights. */
			problems: string[];
			bytesRead: number;
	  };
