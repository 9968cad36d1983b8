// tsc compiles only TypeScript; templates and other view assets are copied beside the compiled views.
import { cpSync } from 'node:fs';

cpSync('src/adapters/views/nunjucks/templates', 'dist/adapters/views/nunjucks/templates', {
  recursive: true,
});
