import { isNetworkError, serverDetail } from '../../api/errors';

/** The spec's env-variable messages: 'Failed …' when the server said no, 'Error …' when it could not be reached. */
export const envLoadError = (error: unknown) =>
  isNetworkError(error) ? 'Error loading environment variables' : 'Failed to load environment variables';

export const envSaveError = (error: unknown) =>
  isNetworkError(error)
    ? 'Error saving environment variables'
    : (serverDetail(error) ?? 'Failed to save environment variables');

export const envDeleteError = (error: unknown) =>
  isNetworkError(error) ? 'Error deleting environment variables' : 'Failed to delete environment variables';
