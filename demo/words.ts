/** The invented vocabulary of the demo shop: an outdoor and home goods store. */

export type Season = 'summer' | 'winter';

export interface ProductTypeSpec {
  name: string;
  code: string;
  group: 'camping' | 'hiking' | 'home';
  nouns: string[];
  materials: string[];
  /** Size values in display order; empty when the type has no size option. */
  sizes: string[];
  colors: boolean;
  /** Whether bigger sizes cost more (tents) or not (jackets). */
  sizePriced: boolean;
  price: [number, number];
  grams: [number, number];
  vendors: string[];
  season: Season | null;
  giftRate: number;
  spec: { key: string; values: string[] };
  care: string[];
  /** Types that are often bought together with this one. */
  companions: string[];
}

export const VENDORS = [
  'Northwind Gear', 'Alder & Pine', 'Fjellkraft', 'Cedar Hollow', 'Ridgeback Outfitters', 'Lumen Works',
  'Saltmarsh Supply', 'Oak & Ember', 'Granite Peak', 'Willow Loom', 'Bramble Co.', 'Tidewater Trading',
] as const;

const [NORTHWIND, ALDER, FJELL, CEDAR, RIDGEBACK, LUMEN, SALTMARSH, OAK, GRANITE, WILLOW, BRAMBLE, TIDEWATER] = VENDORS;

export const PRODUCT_TYPES: ProductTypeSpec[] = [
  {
    name: 'Tents', code: 'TNT', group: 'camping',
    nouns: ['Dome Tent', 'Tunnel Tent', 'Trekking Tent', 'Backpacking Tent', 'Family Tent', 'Bivy Shelter', 'Tarp Shelter'],
    materials: ['Ripstop Nylon', 'Silnylon', 'Polyester', 'Canvas', 'Dyneema'],
    sizes: ['1-Person', '2-Person', '3-Person', '4-Person', '6-Person'], colors: true, sizePriced: true,
    price: [129, 480], grams: [900, 6800], vendors: [NORTHWIND, FJELL, GRANITE, RIDGEBACK], season: 'summer', giftRate: 0.03,
    spec: { key: 'season_rating', values: ['3-season', '3+ season', '4-season'] },
    care: ['Dry fully before packing away.', 'Clean with a soft sponge and cold water; never machine wash.'],
    companions: ['Sleeping Bags', 'Lighting'],
  },
  {
    name: 'Sleeping Bags', code: 'SLP', group: 'camping',
    nouns: ['Mummy Bag', 'Sleeping Bag', 'Camp Quilt', 'Sleeping Bag Liner', 'Double Sleeping Bag'],
    materials: ['Down', 'Synthetic', 'Recycled Polyester', 'Merino', 'Cotton Flannel'],
    sizes: ['Regular', 'Long', 'Wide'], colors: true, sizePriced: true,
    price: [49, 420], grams: [450, 2600], vendors: [NORTHWIND, FJELL, CEDAR], season: 'winter', giftRate: 0.05,
    spec: { key: 'comfort_temperature', values: ['+10 °C', '+5 °C', '0 °C', '-5 °C', '-10 °C'] },
    care: ['Store loosely in the cotton storage sack.', 'Wash with a dedicated down wash at 30 °C.'],
    companions: ['Tents', 'Blankets & Throws'],
  },
  {
    name: 'Backpacks', code: 'BPK', group: 'hiking',
    nouns: ['Daypack', 'Hiking Pack', 'Travel Pack', 'Rolltop Pack', 'Hip Pack', 'Trekking Pack'],
    materials: ['Waxed Canvas', 'Cordura', 'Recycled Nylon', 'Ripstop', 'Canvas & Leather'],
    sizes: ['18 L', '28 L', '38 L', '55 L'], colors: true, sizePriced: true,
    price: [39, 320], grams: [300, 2100], vendors: [RIDGEBACK, GRANITE, SALTMARSH, BRAMBLE], season: null, giftRate: 0.1,
    spec: { key: 'back_system', values: ['Ventilated mesh', 'Padded frame', 'Frameless'] },
    care: ['Empty and air out after every trip.', 'Spot clean with lukewarm water.'],
    companions: ['Drinkware', 'Lighting'],
  },
  {
    name: 'Jackets', code: 'JKT', group: 'hiking',
    nouns: ['Rain Jacket', 'Down Jacket', 'Softshell Jacket', 'Fleece Jacket', 'Parka', 'Insulated Vest', 'Anorak'],
    materials: ['Ripstop', 'Merino', 'Recycled Down', 'Waxed Cotton', 'Organic Cotton', 'Softshell'],
    sizes: ['XS', 'S', 'M', 'L', 'XL', 'XXL'], colors: true, sizePriced: false,
    price: [59, 450], grams: [250, 1400], vendors: [NORTHWIND, FJELL, GRANITE, TIDEWATER], season: 'winter', giftRate: 0.06,
    spec: { key: 'fit', values: ['Regular fit', 'Slim fit', 'Relaxed fit'] },
    care: ['Machine wash at 30 °C, closed zips.', 'Reproof with a spray-on treatment once a season.'],
    companions: ['Footwear', 'Backpacks'],
  },
  {
    name: 'Footwear', code: 'FTW', group: 'hiking',
    nouns: ['Hiking Boot', 'Trail Runner', 'Camp Slipper', 'Approach Shoe', 'Winter Boot', 'Sandal'],
    materials: ['Suede', 'Leather', 'Nubuck', 'Mesh', 'Wool Felt'],
    sizes: ['38', '39', '40', '41', '42', '43', '44', '45', '46'], colors: true, sizePriced: false,
    price: [45, 260], grams: [400, 1600], vendors: [RIDGEBACK, GRANITE, CEDAR], season: null, giftRate: 0.04,
    spec: { key: 'heel_drop', values: ['4 mm', '6 mm', '8 mm', '10 mm'] },
    care: ['Let dry at room temperature, away from radiators.', 'Brush off dirt and apply wax twice a season.'],
    companions: ['Jackets', 'Backpacks'],
  },
  {
    name: 'Cookware', code: 'CKW', group: 'home',
    nouns: ['Camp Pot', 'Skillet', 'Kettle', 'Dutch Oven', 'Cook Set', 'Percolator', 'Grill Pan'],
    materials: ['Cast Iron', 'Titanium', 'Stainless Steel', 'Enamel', 'Anodized Aluminium'],
    sizes: ['Small', 'Medium', 'Large'], colors: true, sizePriced: true,
    price: [24, 220], grams: [180, 5200], vendors: [OAK, CEDAR, SALTMARSH, ALDER], season: null, giftRate: 0.15,
    spec: { key: 'capacity', values: ['0.8 L', '1.2 L', '2 L', '3.5 L', '5 L'] },
    care: ['Hand wash only and dry straight away.', 'Season cast iron with a thin film of oil.'],
    companions: ['Drinkware', 'Lighting'],
  },
  {
    name: 'Lighting', code: 'LGT', group: 'home',
    nouns: ['Lantern', 'Headlamp', 'String Lights', 'Candle Lantern', 'Torch', 'Table Lamp'],
    materials: ['Brass', 'Aluminium', 'Bamboo', 'Recycled Plastic', 'Glass'],
    sizes: [], colors: true, sizePriced: false,
    price: [19, 140], grams: [60, 900], vendors: [LUMEN, OAK, ALDER], season: null, giftRate: 0.3,
    spec: { key: 'brightness', values: ['150 lm', '300 lm', '450 lm', '800 lm'] },
    care: ['Remove the batteries before long storage.', 'Wipe with a dry cloth.'],
    companions: ['Tents', 'Backpacks'],
  },
  {
    name: 'Blankets & Throws', code: 'BLK', group: 'home',
    nouns: ['Throw', 'Blanket', 'Picnic Blanket', 'Camp Blanket', 'Poncho Blanket'],
    materials: ['Wool', 'Merino', 'Organic Cotton', 'Alpaca', 'Linen', 'Recycled Fleece'],
    sizes: ['Throw', 'Queen', 'King'], colors: true, sizePriced: true,
    price: [39, 290], grams: [500, 2400], vendors: [WILLOW, ALDER, BRAMBLE], season: 'winter', giftRate: 0.3,
    spec: { key: 'weave', values: ['Herringbone', 'Waffle', 'Plain weave', 'Jacquard'] },
    care: ['Wool cycle at 30 °C, dry flat.', 'Air regularly instead of washing.'],
    companions: ['Sleeping Bags', 'Lighting'],
  },
  {
    name: 'Drinkware', code: 'DRK', group: 'home',
    nouns: ['Mug', 'Tumbler', 'Water Bottle', 'Vacuum Flask', 'Camp Cup', 'Carafe'],
    materials: ['Enamel', 'Stoneware', 'Insulated Steel', 'Titanium', 'Glass', 'Ceramic'],
    sizes: ['250 ml', '350 ml', '500 ml', '750 ml', '1 L'], colors: true, sizePriced: true,
    price: [19, 65], grams: [120, 650], vendors: [OAK, SALTMARSH, TIDEWATER, WILLOW], season: 'summer', giftRate: 0.35,
    spec: { key: 'keeps_hot', values: ['6 hours', '12 hours', '24 hours'] },
    care: ['Dishwasher safe, top rack.', 'Hand wash the lid; do not microwave.'],
    companions: ['Cookware', 'Backpacks'],
  },
];

export const ADJECTIVES = [
  'Alpine', 'Summit', 'Trailhead', 'Northern', 'Coastal', 'Everyday', 'Basecamp', 'Ridge', 'Meadow', 'Fjord',
  'Timber', 'Highland', 'Canyon', 'Harbor', 'Lakeside', 'Wildwood', 'Driftwood', 'Aurora',
];

export const COLORS = [
  'Black', 'Charcoal', 'Slate Blue', 'Forest Green', 'Olive', 'Sand', 'Rust', 'Ochre', 'Navy', 'Cream', 'Burgundy', 'Stone',
];

export const BENEFITS = [
  'built for long days outside and quiet evenings in',
  'made to be used hard and repaired, not replaced',
  'light enough to carry and tough enough to last',
  'designed with rangers, guides and weekend campers',
  'a small upgrade that makes every trip easier',
  'as at home on the trail as it is on the porch',
];

export const IMAGE_VIEWS = ['front view', 'detail', 'in use'];

export const FIRST_NAMES = [
  'Anna', 'Ben', 'Clara', 'David', 'Elena', 'Felix', 'Grace', 'Hugo', 'Ines', 'Jonas', 'Kira', 'Liam', 'Maya', 'Noah',
  'Olivia', 'Paul', 'Quinn', 'Rosa', 'Sam', 'Tara', 'Umar', 'Vera', 'Will', 'Yara', 'Zoe', 'Leo', 'Mila', 'Omar',
];

export const LAST_NAMES = [
  'Andersen', 'Baker', 'Costa', 'Dubois', 'Evans', 'Fischer', 'Garcia', 'Hansen', 'Ito', 'Jensen', 'Kowalski', 'Larsen',
  'Moreau', 'Novak', "O'Brien", 'Patel', 'Rossi', 'Schmidt', 'Tanaka', 'Walsh', 'Young', 'Zimmermann',
];
