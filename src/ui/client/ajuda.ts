import { byId } from './dom';
import { server } from './rpc';

server
  .getAbout()
  .then((text) => {
    byId('about').textContent = text;
  })
  .catch(() => undefined);
