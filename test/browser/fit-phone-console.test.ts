import { test } from 'node:test';
import { chromiumSkip } from '../helpers/browser.js';
import { checkPages, CONSOLE_VIEWS, VIEWPORTS } from '../helpers/page-fit.js';

const skip = chromiumSkip();
const viewport: (typeof VIEWPORTS)[number] = VIEWPORTS[0];

// issue 32: every page and console view fits a 390 px phone and a 1440 px screen (one file per viewport and group: each stays within the runner's time limit)
test(`console views fit ${viewport.width}×${viewport.height}: no horizontal scroll, axe-core clean`, { skip }, () => checkPages(viewport, CONSOLE_VIEWS, true));
