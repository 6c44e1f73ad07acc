import type { WidgetExample } from "../libraries/types.js";
import type { WidgetType } from "../pipelines.js";

/** Default widget inputs in Spanish. */
export const MAPPING_ES = new Map<WidgetType, string[] | WidgetExample[]>([
	["text-classification", ["El servicio fue lento y la comida llegó fría; no pienso volver."]],
	["token-classification", ["Lucía Fernández abrió una panadería en Valencia el año pasado."]],
	[
		"question-answering",
		[
			{
				text: "¿Cuántos días dura el festival?",
				context:
					"El festival de música se celebra cada verano en Granada y dura cinco días, con conciertos al aire libre todas las noches.",
			},
			{
				text: "¿Qué necesita la tomatera para crecer bien?",
				context:
					"La tomatera necesita mucho sol y un riego regular para crecer bien. Lo mejor es plantarla en primavera, cuando ya no hay heladas.",
			},
			{
				text: "¿Dónde nació Carmen?",
				context:
					"Carmen nació en Sevilla, pero a los veinte años se mudó a Buenos Aires para estudiar medicina.",
			},
		],
	],
	["translation", ["¿Podrías decirme a qué hora abre el museo?", "Mañana vamos a la playa con mis primos."]],
	[
		"summarization",
		[
			"Los mercados municipales han vivido un renacimiento en muchas ciudades españolas. Tras años perdiendo clientes frente a los supermercados, muchos han renovado sus instalaciones y han incorporado bares y puestos de comida preparada. Los vecinos valoran la calidad de los productos frescos y el trato cercano con los vendedores, mientras que los turistas acuden para probar la gastronomía local. Sin embargo, algunos comerciantes temen que la llegada de tantos visitantes haga subir los precios y aleje a los clientes de toda la vida.",
		],
	],
	[
		"text-generation",
		[
			"Había una vez un pequeño dragón que",
			"La mejor manera de aprender a cocinar es",
			"Cuando por fin llegué a la estación,",
			"Mi ciudad favorita es",
			"Para cuidar el medio ambiente, podemos",
		],
	],
	[
		"fill-mask",
		["Los domingos desayunamos <mask> con chocolate.", "Mi hermana toca el <mask> en una orquesta."],
	],
	[
		"sentence-similarity",
		[
			{
				source_sentence: "Me gusta leer antes de dormir.",
				sentences: [
					"Antes de acostarme suelo leer un libro.",
					"Por las mañanas salgo a correr.",
					"Mi hermano trabaja en un hospital.",
				],
			},
		],
	],
]);
