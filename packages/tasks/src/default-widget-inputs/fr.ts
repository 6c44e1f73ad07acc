import type { WidgetExample } from "../libraries/types.js";
import type { WidgetType } from "../pipelines.js";

/** Default widget inputs in French. */
export const MAPPING_FR = new Map<WidgetType, string[] | WidgetExample[]>([
	["text-classification", ["Ce film était vraiment émouvant, je le recommande à tout le monde."]],
	["token-classification", ["Claire Dubois travaille comme architecte à Lyon depuis 2015."]],
	[
		"question-answering",
		[
			{
				text: "À quelle heure part le dernier bus ?",
				context:
					"Le premier bus quitte la gare à 6 h 15 et le dernier à 23 h 40. Le week-end, les bus passent toutes les trente minutes.",
			},
		],
	],
	["translation", ["Je voudrais réserver une table pour quatre personnes ce soir."]],
	[
		"summarization",
		[
			"Depuis quelques années, de plus en plus de citadins choisissent le vélo pour se rendre au travail. Les municipalités ont multiplié les pistes cyclables et les stationnements sécurisés, et l'arrivée des vélos à assistance électrique a rendu les longs trajets accessibles à un large public. Ce changement réduit les embouteillages et la pollution de l'air, tout en améliorant la santé des usagers. Toutefois, de nombreux cyclistes réclament encore des aménagements plus sûrs, notamment aux carrefours, où la cohabitation avec les voitures reste difficile.",
		],
	],
	[
		"text-generation",
		[
			"Il était une fois, dans un petit village au bord de la mer,",
			"Pour réussir une bonne soupe à l'oignon, il faut",
			"Demain matin, avant d'aller au travail, je vais",
		],
	],
	["fill-mask", ["Chaque dimanche, nous allons au <mask> pour acheter des légumes frais."]],
	[
		"sentence-similarity",
		[
			{
				source_sentence: "Le chat dort sur le canapé.",
				sentences: [
					"Un chat fait la sieste sur le sofa.",
					"Le chien court dans le jardin.",
					"Nous dînons au restaurant ce soir.",
				],
			},
		],
	],
]);
