import type { WidgetExample } from "../libraries/types.js";
import type { WidgetType } from "../pipelines.js";

/** Default widget inputs in English. */
export const MAPPING_EN = new Map<WidgetType, string[] | WidgetExample[]>([
	["text-classification", ["The new update made the app so much faster, I'm really happy with it."]],
	[
		"token-classification",
		[
			"Priya Sharma works as a nurse at a children's hospital in Toronto.",
			"Last summer, Diego and Ana took the night train from Lisbon to Madrid.",
			"Our team met Kenji Watanabe from Panasonic at a robotics fair in Osaka.",
		],
	],
	[
		"table-question-answering",
		[
			{
				text: "Which repository has the most contributors?",
				table: {
					Repository: ["river-sim", "lumen-ui", "quickparse"],
					Stars: ["2871", "15403", "642"],
					Contributors: ["48", "312", "9"],
					"Programming language": ["Julia", "TypeScript", "Go"],
				},
			},
		],
	],
	[
		"question-answering",
		[
			{
				text: "When does the library close on Saturdays?",
				context:
					"The city library is open from 9 a.m. to 8 p.m. on weekdays. On Saturdays it closes at 5 p.m., and it stays closed on Sundays.",
			},
			{
				text: "What gives sourdough bread its sour taste?",
				context:
					"Sourdough bread is made without commercial yeast. It rises thanks to a starter of flour and water, whose wild yeasts and lactic acid bacteria give the bread its sour taste.",
			},
			{
				text: "How long does the ferry crossing take?",
				context:
					"The ferry leaves the harbour every two hours, and the crossing to the island takes about forty minutes. Bicycles can be brought on board for a small fee.",
			},
			{
				text: "Who painted the mural in the train station?",
				context:
					"The colourful mural in the central train station was painted in 2019 by local artist Maya Okafor, who worked on it at night for three months.",
			},
		],
	],
	[
		"zero-shot-classification",
		[
			{
				text: "I ordered a laptop two weeks ago, it still hasn't arrived and nobody answers my emails.",
				candidate_labels: "delivery, customer service, product quality, pricing",
				multi_class: true,
			},
			{
				text: "The home team scored twice in the last ten minutes to win the championship.",
				candidate_labels: "sports, politics, technology, cooking",
				multi_class: false,
			},
			{
				text: "The new phone has a brighter screen and costs less than last year's model.",
				candidate_labels: "technology, pricing, health, travel",
				multi_class: true,
			},
		],
	],
	[
		"translation",
		[
			"Could you tell me where the nearest pharmacy is?",
			"We are planning to visit my grandparents next weekend.",
		],
	],
	[
		"summarization",
		[
			"Urban gardens have become increasingly popular in many cities over the past decade. Residents turn empty lots and rooftops into shared spaces where they grow vegetables, herbs and flowers. Besides providing fresh food, these gardens help cool neighbourhoods during hot summers, support bees and other pollinators, and give neighbours a place to meet. Some schools now use nearby gardens to teach children where their food comes from. Critics point out that land in city centres is expensive and that many gardens are only temporary, but supporters argue that even small plots make a real difference to the quality of life in a neighbourhood.",
		],
	],
	[
		"conversational",
		[
			"Hi! Can you help me plan a healthy breakfast for this week?",
			"What's a good way to start learning the guitar as an adult?",
			"Can you explain in simple terms how a rainbow forms?",
			"I have a job interview tomorrow morning. Any tips?",
		],
	],
	[
		"text-generation",
		[
			"The old lighthouse keeper opened the door and saw",
			"Here is a simple recipe for tomato soup:",
			"In the year 2150, the first cities on Mars",
			"Three habits that help you sleep better are",
		],
	],
	[
		"fill-mask",
		[
			"I always drink a cup of <mask> before I start work.",
			"The children played in the <mask> until it got dark.",
		],
	],
	[
		"sentence-similarity",
		[
			{
				source_sentence: "A man is riding a bicycle down the street.",
				sentences: [
					"Someone is cycling along the road.",
					"A woman is cooking dinner in the kitchen.",
					"A man is walking his dog in the park.",
				],
			},
		],
	],
]);
