// The DynamoDB stores (on dynalite) under the contracts of the interfaces they implement.
import { dynamoDbDedup, dynamoDbUsers } from './backends/dynamodb.js'
import { dedupStore, userStateStore } from './register.js'

dedupStore(dynamoDbDedup)
userStateStore(dynamoDbUsers)
