import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { queryClient } from './api/queryClient';
import { AuthProvider } from './app/AuthProvider';
import { DialogsProvider } from './app/DialogsProvider';
import { RouteErrorBoundary } from './app/RouteErrorBoundary';
import { AppRoutes, preloadOpenedPage } from './app/router';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

preloadOpenedPage(window.location);

// The outer error boundary catches what fails outside a page (the layout, the header).
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <DialogsProvider>
          <BrowserRouter>
            <RouteErrorBoundary>
              <AppRoutes />
            </RouteErrorBoundary>
          </BrowserRouter>
        </DialogsProvider>
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
