import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalogView } from '../../src/catalog/catalog.js';
import { ALL_ROUTES } from '../../src/features/index.js';
import { buildToolSet, type BosunTool } from '../../src/features/mcp/tools.js';

/**
 * Can a model find the right tool from its text? Plain-language tasks, written as agents ask them, each
 * with the operation that answers it; a plain BM25 ranking over every tool's name, title and
 * description (no synonyms, no per-task tuning) must put the expected tool first for at least 90 %.
 */
const TASKS: ReadonlyArray<readonly [task: string, operationId: string]> = [
  ['Where is the vessel with IMO 9811000 right now? I need its latest position.', 'getVesselsLastPosition'],
  ['Search for vessels named Ever Given', 'getVesselsSearch'],
  ['List the recent port calls of a vessel, given its IMO number', 'getServicesVesselSnapshotRead'],
  ['Port calls and positions of a vessel between two dates (from, to)', 'getServicesVesselHistoryRead'],
  ['Look up a ship by its MMSI number: identity and feeds', 'getVesselsLookup'],
  ['Latest positions of up to 50 vessels of my fleet in one call', 'getVesselsWatchlist'],
  ['What is the sea route distance in nautical miles from Rotterdam to Singapore?', 'getRoutesDirect'],
  ['Plan a sea route from Houston to Rotterdam through waypoints', 'getRoutesWithVia'],
  ['How much longer is the route if the Suez canal is closed?', 'getRoutesWhatIf'],
  ['When will this vessel arrive at its destination? ETA', 'getRoutesForecastLite'],
  ['Find the UN/LOCODE and port_id of the port of Hamburg', 'getPortsSearch'],
  ['How congested is the port of Singapore: how many ships wait at anchor?', 'getPortsByPortIdCongestion'],
  ['Show ship-to-ship transfers detected in the last 7 days', 'getStsEvents'],
  ['Which are the busiest shipping lanes between ports?', 'getRoutesTopLanes'],
  ['Register my agent and get an API key', 'postAgentsRegister'],
  ['Ask other agents for help with decoding AIS messages', 'postHarborHelpRequests'],
  ['Answer the help request another agent posted', 'postHarborHelpRequestsByIdResponses'],
  ['Publish my agent profile with my capabilities', 'postHarborProfiles'],
  ['Save a JSON document in my private workspace', 'putWorkspaceDocumentsByName'],
  ['Check my event inbox for answers to my help requests', 'getWorkspaceEvents'],
  ["Report that a vessel's name in your data is wrong and give the correct value", 'postFeedbackCorrection'],
  ['How much does each operation cost in cost units?', 'getBillingPricing'],
  ['Which rate limits are in force?', 'getCapabilitiesLimits'],
  ['Send a private direct message to another agent', 'postExchangeSendMessage'],
  ['Is the Strait of Hormuz chokepoint stressed? Route stress index', 'getMetricsRouteStressIndex'],
  ['What risk flags are there on the sea route from Shanghai to Rotterdam?', 'getRoutesRiskFlags'],
  ['Which ports are the most visited by vessels?', 'getVesselsVisitRank'],
  ['Find LNG terminals and offshore infrastructure near a point', 'getLayersResourceInfraObjects'],
  ['Find agents by capability tag, for example ais-decoding', 'getHarborSkills'],
  ['How many cost units of usage have I spent this month?', 'getBillingStatus'],
  ['Why does the route go through the Suez canal? Explain the passages.', 'getRoutesExplain'],
  ['Which chokepoint corridors are slowing down or dropping in volume against their baseline?', 'getRoutesCorridorWatch'],
  ['Show my own agent record, state and scopes', 'getAgentsMe'],
  ['Download the OpenAPI document', 'getWellKnownOpenapiJson'],
  ['Post a message in a public exchange channel', 'postExchangeMessages'],
  ['Delete a document from my workspace', 'deleteWorkspaceDocumentsByName'],
  ['Which ports did this vessel call at last month?', 'getEvents'],
  ['Encounters between vessels near Malta last week', 'getEvents'],
  ['Vessels that went dark in the Gulf of Oman', 'getEvents'],
  ['Ships loitering at sea, drifting slowly far from shore', 'getEvents'],
  ['Show one detected port call event by its event_id', 'getEventsByEventId'],
];

const STOPWORDS = new Set(
  'a an and are as at be by can do does for from get give has have how i if in is it its me my of on or over the their there this to up what when where which who why will with you your'.split(' '),
);

/** A light suffix stripper (plural, -ing, -ed, final e), the same for every word of tasks and tools. */
function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** Lower-case words without stop words, stemmed: a plain keyword tokenizer. */
function tokens(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOPWORDS.has(w))
    .map(stem);
}

/** Okapi BM25 (k1 1.2, b 0.75) over documents; answers the document indexes, best first. */
function bm25(documents: readonly string[], query: string): number[] {
  const k1 = 1.2;
  const b = 0.75;
  const docs = documents.map(tokens);
  const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length;
  const df = new Map<string, number>();
  for (const d of docs) for (const term of new Set(d)) df.set(term, (df.get(term) ?? 0) + 1);
  const terms = [...new Set(tokens(query))];
  const scores = docs.map((d) => {
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    return terms.reduce((score, term) => {
      const f = tf.get(term) ?? 0;
      if (!f) return score;
      const n = df.get(term) ?? 0;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      return score + (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / avg));
    }, 0);
  });
  return scores
    .map((s, i) => [s, i] as const)
    .sort((x, y) => y[0] - x[0] || x[1] - y[1])
    .map(([, i]) => i);
}

const toolText = (t: BosunTool) => `${t.name} ${t.title} ${t.description}`;

test('tool retrieval: a plain BM25 ranking over the tool texts puts the expected tool first for at least 90 % of 41 agent tasks; the events tool for dark and loitering vessels', () => {
  const tools = buildToolSet(buildCatalogView(ALL_ROUTES)).tools;
  const texts = tools.map(toolText);
  assert.ok(TASKS.length >= 30);
  const names = new Set(tools.map((t) => t.name));
  for (const [, expected] of TASKS) assert.ok(names.has(expected), `${expected} is a tool`);
  const ranks = TASKS.map(([task, expected]) => {
    const order = bm25(texts, task);
    return { task, expected, rank: order.findIndex((i) => tools[i]!.name === expected) + 1, first: tools[order[0]!]!.name };
  });
  const missed = ranks.filter((r) => r.rank !== 1);
  const share = (TASKS.length - missed.length) / TASKS.length;
  assert.ok(share >= 0.9, `first for ${TASKS.length - missed.length} of ${TASKS.length}; missed:\n${missed.map((m) => `  ${m.task} → ${m.first} (expected ${m.expected} at ${m.rank})`).join('\n')}`);
  // issue 27: the events operation is what an agent finds for vessels that went dark or loitered
  for (const task of ['Vessels that went dark in the Gulf of Oman', 'Ships loitering at sea, drifting slowly far from shore']) assert.equal(ranks.find((r) => r.task === task)!.rank, 1, task);
  assert.ok(
    missed.every((m) => m.rank <= 5),
    'a missed tool is still among the first five',
  );
});
