/**
 * The views' one script: it draws the view its document names (`<main data-view>`), so that both
 * documents share it and the package ships it once.
 */
import './style.css';
import { showChat } from './chat.js';
import { showProject } from './project.js';
import { root } from './view.js';

const main = root();
if (main.dataset.view === 'chat') showChat(main);
else showProject(main);
