import { render } from 'preact'
import { TOKEN_META } from '../src/token-meta.js'
import { createApi } from './api.js'
import { App } from './components/App.js'
import './styles.css'

// The simulator serves the page with its per-run token; without it the page can watch but not act.
const token = document.querySelector<HTMLMetaElement>(`meta[name="${TOKEN_META}"]`)?.content ?? ''
const root = document.getElementById('app')
if (root) render(<App api={createApi(token)} />, root)
