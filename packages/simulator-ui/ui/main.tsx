import { render } from 'preact'
import { createApi, simulatorOrigin } from './api.js'
import { App } from './components/App.js'
import './styles.css'

const origin = simulatorOrigin(window.location)
const root = document.getElementById('app')
if (root) render(<App api={createApi(origin)} origin={origin} />, root)
