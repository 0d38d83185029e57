import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { RouteErrorBoundary } from './app/RouteErrorBoundary';
import { AppRoutes, preloadOpenedPage } from './app/router';
import { AuthProvider } from './components/AuthProvider';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

preloadOpenedPage(window.location);

// The outer error boundary catches what fails outside a page (the layout, the header). The query cache and
// dialogs come with the screens that use them (app/PageProviders.tsx), not before the landing page.
createRoot(root).render(
  <StrictMode>
    <AuthProvider>
      <BrowserRouter>
        <RouteErrorBoundary>
          <AppRoutes />
        </RouteErrorBoundary>
      </BrowserRouter>
    </AuthProvider>
  </StrictMode>,
);
