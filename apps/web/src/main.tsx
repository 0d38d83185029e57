import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { queryClient } from './api/queryClient';
import { AuthProvider } from './app/AuthProvider';
import { DialogsProvider } from './app/DialogsProvider';
import { router } from './app/router';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <DialogsProvider>
          <RouterProvider router={router} />
        </DialogsProvider>
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
