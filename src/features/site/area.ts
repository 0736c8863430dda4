import { defineArea } from '../kit/define-area.js';
import { siteRoutes } from './routes.js';

/** The site's public forum listing (its pages are built with the HTTP app, from every service). */
export const siteArea = defineArea({ name: 'site', routes: siteRoutes, build: () => ({ services: {} }) });
