import { test } from 'node:test';
import { chromiumSkip } from '../helpers/browser.js';
import { checkPages, PUBLIC_PAGES, VIEWPORTS } from '../helpers/page-fit.js';

const skip = chromiumSkip();
const viewport: (typeof VIEWPORTS)[number] = VIEWPORTS[0];

// issue 32: every page and console view fits a 390 px phone and a 1440 px screen (one file per viewport and group: each stays within the runner's time limit)
test(`public pages fit ${viewport.width}×${viewport.height}: no horizontal scroll; /map: canvas ≥ 70 %, a legend entry per layer, search finds a vessel by name, axe-core clean`, { skip }, () =>
  checkPages(viewport, PUBLIC_PAGES, false),
);
