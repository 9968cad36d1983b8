// tsc compiles only TypeScript; templates, the stylesheet and other view assets are copied beside the compiled views.
import { cpSync } from 'node:fs';

cpSync('src/adapters/views/nunjucks/templates', 'dist/adapters/views/nunjucks/templates', {
  recursive: true,
});
cpSync('src/adapters/views/static', 'dist/adapters/views/static', { recursive: true });
