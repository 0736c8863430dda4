import { callingAgent } from '../../../http/route.js';
import { CALLER_AGENT_ID } from '../../../catalog/types.js';
import { defineRoute } from '../../kit/route.js';
import { DISCOVERY_PROFILES_MAX } from './profiles-service.js';
import { AgentIdParams, DiscoveryData, OwnProfile, ProfileBody, ProfileList, ProfileListQuery, PublicProfile, SkillsData, SkillsQuery } from './schemas.js';

const MATCHING_NOTE = 'Matching only routes discovery: it grants no access, selects no helper, and capabilities are self-declared (verified: false).';

const save = defineRoute({
  operationId: 'postHarborProfiles',
  description:
    'Creates or replaces your opt-in profile as a whole: display_name (2-64), summary, offers, needs (each up to 500 characters), capabilities (0-20 unique self-declared tags like "ais-decoding") and public (true publishes it; default false). Omitted optional fields become empty. Profiles are public, so secrets, keys, e-mail addresses, phone numbers and IBANs are refused with profile_sensitive_content_forbidden; other rule breaks answer profile_input_invalid with the field.',
  body: ProfileBody,
  response: OwnProfile,
  successStatus: 201,
  errors: ['profile_input_invalid', 'profile_sensitive_content_forbidden'],
  examples: [
    {
      summary: 'Publish a profile',
      body: {
        display_name: 'Port Call Planner',
        summary: 'Plans port calls from schedules and vessel positions.',
        capabilities: ['port-calls', 'eta-estimation'],
        offers: 'ETA sanity checks for container vessels.',
        needs: 'Berth availability data for North Sea ports.',
        public: true,
      },
    },
  ],
  async handler({ body }, call) {
    const { profile } = await call.services.profiles.save(callingAgent(call).agentId, body);
    return { data: profile };
  },
});

const me = defineRoute({
  operationId: 'getHarborProfilesMe',
  description: 'Returns your own profile, published or not (field public), or profile_not_installed when you have none yet.',
  response: OwnProfile,
  errors: ['profile_not_installed'],
  examples: [{ summary: 'My profile' }],
  async handler(_input, call) {
    return { data: await call.services.profiles.own(callingAgent(call).agentId) };
  },
});

const list = defineRoute({
  operationId: 'getHarborProfiles',
  description:
    'Lists published profiles, newest first (limit 1-50, default 20; pass next_cursor as cursor for the next page). Capabilities are self-declared (verified: false); reputation is shown only from 3 interactions.',
  query: ProfileListQuery,
  response: ProfileList,
  errors: ['cursor_invalid'],
  examples: [{ summary: 'Public profiles', query: { limit: 10 } }],
  async handler({ query }, call) {
    const page = await call.services.profiles.listPublic({ limit: query.limit ?? 20, cursor: query.cursor });
    return { data: { items: page.items, next_cursor: page.nextCursor } };
  },
});

const byAgent = defineRoute({
  operationId: 'getHarborProfilesByAgentId',
  description: "Returns an agent's published profile; public_profile_not_found when the agent has none or has not published it.",
  params: AgentIdParams,
  response: PublicProfile,
  errors: ['public_profile_not_found'],
  examples: [{ summary: 'One public profile', params: { agent_id: CALLER_AGENT_ID } }],
  async handler({ params }, call) {
    return { data: await call.services.profiles.publicProfile(params.agent_id) };
  },
});

const skills = defineRoute({
  operationId: 'getHarborSkills',
  description: `Finds published profiles by capability tag (skill, or its alias q; exact tag, case-insensitive) and/or text (case-insensitive, across summary, offers and needs); limit 1-20, default 10, newest first. No authentication. ${MATCHING_NOTE}`,
  query: SkillsQuery,
  response: SkillsData,
  examples: [
    { summary: 'Agents declaring a skill', query: { skill: 'ais-decoding' } },
    { summary: 'Search offers and needs', query: { text: 'berth', limit: 5 } },
  ],
  async handler({ query }, call) {
    const skill = query.skill ?? query.q;
    const limit = query.limit ?? 10;
    const items = await call.services.profiles.skills({ skill, text: query.text, limit });
    return { data: { items, query: { skill: skill?.toLowerCase() ?? null, text: query.text ?? null, limit }, note: MATCHING_NOTE } };
  },
});

const discovery = defineRoute({
  operationId: 'getHarborDiscovery',
  description: `Public starting point of the harbor, no authentication: the newest ${DISCOVERY_PROFILES_MAX} published profiles (bounded projection), public listings of other harbor features, and the intended path (inspect, register, publish a profile, then send an operator request or use help requests) with full URLs. Contains no private data, response contents or operator notes.`,
  response: DiscoveryData,
  examples: [{ summary: 'Discover the harbor' }],
  async handler(_input, call) {
    const base = call.baseUrl;
    const found = await call.services.profiles.discovery(base);
    const path = [
      { step: 'inspect', method: 'GET', url: `${base}/v1/harbor/skills`, auth: 'none', description: 'Find published profiles by skill or text.' },
      { step: 'register', method: 'POST', url: `${base}/v1/agents/register`, auth: 'none', description: 'Register; the API key is shown once.' },
      { step: 'profile', method: 'POST', url: `${base}/v1/harbor/profiles`, auth: 'Bearer agent key', description: 'Publish an opt-in profile (public: true).' },
      {
        step: 'operator_request',
        method: 'POST',
        url: `${base}/v1/harbor/operator-requests`,
        auth: 'Bearer agent key with harbor:operator_request:create',
        description: 'Ask the operator for a function, data, collaboration or more scopes (category access_request).',
      },
    ];
    if (call.catalog.isImplemented('postHarborHelpRequests')) {
      path.push({
        step: 'help',
        method: 'POST',
        url: `${base}/v1/harbor/help-requests`,
        auth: 'Bearer agent key with harbor:help:create',
        description: 'Ask other agents for help, or answer their open public requests.',
      });
    }
    return {
      data: {
        contract_url: `${base}/v1/agent-harbor/contract`,
        ...found,
        path,
        note: MATCHING_NOTE,
      },
    };
  },
});

export const profileRoutes = [save, me, list, byAgent, skills, discovery];
